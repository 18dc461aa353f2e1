package retry_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/nametest"
)

func TestEnumNamesRoundTrip(t *testing.T) {
	for i, name := range []string{"RETHROW", "RETRY_SAME", "RETRY_NEXT", "IGNORE"} {
		d := retry.Decision(i)
		assert.Equal(t, name, d.String())
		back, err := retry.ParseDecision(strings.ToLower(name))
		require.NoError(t, err)
		assert.Equal(t, d, back)
	}
	for i, name := range []string{"UNSET", "IDEMPOTENT", "NOT_IDEMPOTENT"} {
		v := retry.Idempotence(i)
		assert.Equal(t, name, v.String())
		assert.True(t, v.Valid())
		back, err := retry.ParseIdempotence(strings.ToLower(name))
		require.NoError(t, err)
		assert.Equal(t, v, back)
	}
	for i, name := range []string{"READ_TIMEOUT", "WRITE_TIMEOUT", "UNAVAILABLE", "REQUEST_ABORTED", "ERROR_RESPONSE"} {
		cause := retry.Cause(i)
		assert.Equal(t, name, cause.String())
		back, err := retry.ParseCause(name)
		require.NoError(t, err)
		assert.Equal(t, cause, back)
	}
	assert.Equal(t, "Decision(9)", retry.Decision(9).String())
	assert.Equal(t, "Idempotence(3)", retry.Idempotence(3).String())
	assert.False(t, retry.Idempotence(3).Valid())
	assert.Equal(t, "Cause(7)", retry.Cause(7).String())
}

func TestParseRejects(t *testing.T) {
	_, err := retry.ParseDecision("RETRY")
	assert.ErrorIs(t, err, retry.ErrUnknownDecision)
	assert.Contains(t, err.Error(), `"RETRY"`)
	_, err = retry.ParseIdempotence(" IDEMPOTENT")
	assert.ErrorIs(t, err, retry.ErrUnknownIdempotence)
	_, err = retry.ParseCause("READ_TIMEOUT\n")
	assert.ErrorIs(t, err, retry.ErrUnknownCause)
	// Unicode case folding would map the long s to S; only ASCII folds.
	_, err = retry.ParseDecision("RETRY_ſAME")
	assert.ErrorIs(t, err, retry.ErrUnknownDecision)
}

func TestIdempotenceResolve(t *testing.T) {
	assert.Equal(t, retry.NotIdempotent, retry.IdempotenceUnset.Resolve(false))
	assert.Equal(t, retry.Idempotent, retry.IdempotenceUnset.Resolve(true))
	assert.Equal(t, retry.NotIdempotent, retry.NotIdempotent.Resolve(true))
	assert.Equal(t, retry.Idempotent, retry.Idempotent.Resolve(false))
}

func TestVerdictString(t *testing.T) {
	assert.Equal(t, "RETHROW", retry.Verdict{}.String())
	assert.Equal(t, "RETRY_NEXT at LOCAL_QUORUM", next(6).String())
}

// Each parser accepts exactly one of its names with its ASCII letters in any
// case (no Unicode folding, such as ſ or ı for S or I, and no trimming),
// and refuses anything else with an error wrapping its sentinel.
func FuzzParseNames(f *testing.F) {
	for _, s := range []string{"RETHROW", "retry_same", "Retry_Next", "IGNORE", "UNSET", "not_idempotent",
		"IDEMPOTENT", "READ_TIMEOUT", "error_response", "", "RETRY", "RETRY_ſAME", "ıgnore", "ignore "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, retry.ParseDecision, retry.ErrUnknownDecision,
			retry.Rethrow, retry.RetrySame, retry.RetryNext, retry.Ignore)
		nametest.Check(t, s, retry.ParseIdempotence, retry.ErrUnknownIdempotence,
			retry.IdempotenceUnset, retry.Idempotent, retry.NotIdempotent)
		nametest.Check(t, s, retry.ParseCause, retry.ErrUnknownCause, retry.CauseReadTimeout,
			retry.CauseWriteTimeout, retry.CauseUnavailable, retry.CauseRequestAborted, retry.CauseErrorResponse)
	})
}
