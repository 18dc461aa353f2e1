package retry_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
)

// An error whose Err is another error writes it as its text in JSON and
// reads it back as an error of that text: it was written as {}, its
// reason lost, and did not read back at all. (Found by a review.)
func TestErrorsJSONKeepTheirErrsText(t *testing.T) {
	{
		e := &retry.RequestAbortedError{Err: replica.ErrConnectionFailed}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		var back retry.RequestAbortedError
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, e.Error(), back.Error(), "%s", b)
		require.NoError(t, json.Unmarshal([]byte(`{"Err":null}`), &back))
		assert.Nil(t, back.Err)
	}
}
