package replicatest_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica/replicatest"
)

// An error whose Err is another error writes it as its text in JSON and
// reads it back as an error of that text: it was written as {}, its
// reason lost, and did not read back at all. (Found by a review.)
func TestErrorsJSONKeepTheirErrsText(t *testing.T) {
	{
		e := &replicatest.ConfigError{Setting: "Latency", Reason: "negative", Err: errors.New("under")}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		var back replicatest.ConfigError
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, e.Error(), back.Error(), "%s", b)
		require.NoError(t, json.Unmarshal([]byte(`{"Err":null}`), &back))
		assert.Nil(t, back.Err)
	}
	{
		e := &replicatest.RequestError{Replica: "n1", Op: "Read", Err: errors.New("down")}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		var back replicatest.RequestError
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, e.Error(), back.Error(), "%s", b)
		require.NoError(t, json.Unmarshal([]byte(`{"Err":null}`), &back))
		assert.Nil(t, back.Err)
	}
}
