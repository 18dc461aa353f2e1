package retry_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A speculating statement whose context ends while the policy decides to
// rethrow the first attempt's failure (the policy cancels, standing in for
// a cancel at that moment) is ended by the context, not by the Rethrow,
// which waits for the attempts still running: the speculative attempt
// still running is recorded with what it returned, and wins if it
// succeeded, as in the sequential path. Both were lost: a late success
// was thrown away and the History held the first attempt alone (found by
// a review).
func TestContextEndingDuringARethrowKeepsTheAttemptsInFlight(t *testing.T) {
	for _, deaf := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			pol := &recorder{answer: func(retry.Statement) retry.Verdict {
				cancel()
				return retry.Verdict{Decision: retry.Rethrow}
			}}
			ex := newExecutor(t, retry.Config{Policy: pol, Speculation: retry.FixedDelay(10 * time.Millisecond)})
			attempt := func(ctx context.Context, name string, _ c.Level) (string, error) {
				if name == "a" {
					time.Sleep(50 * time.Millisecond)
					return "", retry.ErrOverloaded
				}
				if !deaf {
					<-ctx.Done()
					return "", ctx.Err()
				}
				time.Sleep(50 * time.Millisecond) // deaf to its context: answers at 60 ms
				return name, nil
			}
			res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"}, attempt)
			require.Equal(t, 2, res.Attempts.Len(), "deaf %v: b ran and returned before Execute did", deaf)
			if deaf {
				require.NoError(t, err, "b's late success wins")
				assert.Equal(t, "b", res.Value)
				return
			}
			var ee *retry.ExecutionError
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.ErrorIs(t, ee.Reason, context.Canceled, "the context ended the statement")
			assert.ErrorIs(t, res.Attempts.At(0).Reason, retry.ErrRethrown)
			assert.ErrorIs(t, res.Attempts.At(1).Reason, context.Canceled)
		})
	}
}
