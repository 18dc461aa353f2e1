package retry_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A Reason logged as JSON reads back as the error it was, not only its
// text: an attempt the policy rethrew prints as it did (String leaves out
// ErrRethrown; read back as text it gained "; stopped: retry: rethrown by
// the retry policy"), and errors.Is matches a statement's logged Reason.
func TestALoggedReasonReadsBackAsItsError(t *testing.T) {
	for _, reason := range []error{retry.ErrRethrown, retry.ErrNotIdempotent, retry.ErrPlanExhausted,
		retry.ErrTooManyRetries, retry.ErrBudgetExhausted, retry.ErrBackoffPastDeadline,
		retry.ErrInvalidVerdict, context.Canceled, context.DeadlineExceeded} {
		rec := retry.AttemptRecord{Level: consistency.Quorum, Err: errors.New("boom"),
			Cause: retry.CauseReadTimeout, Verdict: retry.Verdict{Decision: retry.Rethrow}, Reason: reason}
		b, err := json.Marshal(rec)
		require.NoError(t, err)
		var back retry.AttemptRecord
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, rec.String(), back.String())
		assert.ErrorIs(t, back.Reason, reason)

		ee := retry.ExecutionError{Reason: reason, Err: errors.New("boom")}
		b, err = json.Marshal(ee)
		require.NoError(t, err)
		var backErr retry.ExecutionError
		require.NoError(t, json.Unmarshal(b, &backErr))
		assert.ErrorIs(t, &backErr, reason)
		assert.Equal(t, ee.Error(), backErr.Error())
	}

	var other retry.AttemptRecord
	require.NoError(t, json.Unmarshal([]byte(`{"Reason":"retry: rethrown by the retry policy!"}`), &other))
	assert.NotErrorIs(t, other.Reason, retry.ErrRethrown, "only the exact text")
	assert.EqualError(t, other.Reason, "retry: rethrown by the retry policy!")
}

// A statement whose caller cancelled with a cause stopped with a Reason
// that wraps context.Canceled and the cause; logged as JSON, it reads back
// as one that errors.Is still matches as context.Canceled, of the same
// text (it read back as text only). (Found by a review.)
func TestALoggedContextReasonWithACauseReadsBackAsTheContextsError(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("user went away"))
	ex, err := retry.NewExecutor(retry.Config{})
	require.NoError(t, err)
	_, err = retry.Execute(ctx, ex, retry.Statement{Level: consistency.One}, []string{"a"},
		func(ctx context.Context, target string, level consistency.Level) (int, error) { return 0, nil })
	var ee *retry.ExecutionError
	require.ErrorAs(t, err, &ee)
	require.ErrorIs(t, ee, context.Canceled)
	b, err := json.Marshal(ee)
	require.NoError(t, err)
	var back retry.ExecutionError
	require.NoError(t, json.Unmarshal(b, &back))
	assert.ErrorIs(t, &back, context.Canceled)
	assert.Equal(t, ee.Error(), back.Error())
	assert.EqualError(t, back.Reason, ee.Reason.Error())
}
