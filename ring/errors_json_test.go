package ring_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/ring"
)

// An error whose Err is another error writes it as its text in JSON and
// reads it back as an error of that text: it was written as {}, its
// reason lost, and did not read back at all. (Found by a review.)
func TestErrorsJSONKeepTheirErrsText(t *testing.T) {
	{
		e := &ring.ConfigError{Setting: "Replication", Reason: "bad", Err: errors.New("no such datacenter")}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		var back ring.ConfigError
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, e.Error(), back.Error(), "%s", b)
		require.NoError(t, json.Unmarshal([]byte(`{"Err":null}`), &back))
		assert.Nil(t, back.Err)
	}
	{
		e := &ring.ConnectError{Node: "n1", Err: errors.New("refused")}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		var back ring.ConnectError
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, e.Error(), back.Error(), "%s", b)
		require.NoError(t, json.Unmarshal([]byte(`{"Err":null}`), &back))
		assert.Nil(t, back.Err)
	}
}
