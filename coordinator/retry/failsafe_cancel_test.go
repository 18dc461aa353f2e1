package retry_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Ports of failsafe-go's cancellation tests (test/cancellation_test.go
// TestExecution_Cancellation and TestRetryPolicy_Cancellation) and of the
// max-duration case of test/retrypolicy_test.go. readpath has no
// MaxDuration: the context's deadline bounds a statement.

// "with Context" and "with Deadline": the context ends the attempt, which
// waits for it; the statement fails with the context's error after one
// attempt, and the policy is not asked.
func TestFailsafeContextEndsTheAttempt(t *testing.T) {
	for _, cancel := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			var ctx context.Context
			var stop context.CancelFunc
			want := context.DeadlineExceeded
			if cancel {
				ctx, stop = context.WithCancel(t.Context())
				time.AfterFunc(100*ms, stop)
				want = context.Canceled
			} else {
				ctx, stop = context.WithTimeout(t.Context(), 100*ms)
			}
			defer stop()
			pol := retrySame()
			ex := newExecutor(t, retry.Config{Policy: pol})
			cl := newCluster()
			_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), []target{{name: "a", delay: never}}, cl.attempt)
			assert.ErrorIs(t, err, want)
			var ee *retry.ExecutionError
			require.ErrorAs(t, err, &ee)
			assert.ErrorIs(t, ee.Reason, want)
			assert.Equal(t, 100*ms, cl.elapsed())
			assert.Equal(t, []call{{target: "a", level: c.One, cancelled: true}}, cl.log())
			assert.Empty(t, pol.questions())
			assert.Zero(t, ex.Metrics().TotalRetries())
		})
	}
}

// "with context during pending retry" (delay 1 s, cancelled at 50 ms): the
// wait ends with the context, the statement fails with context.Canceled
// and the first attempt's error, the retry never starts: OnRetry heard of
// it, Metrics do not count it and its budget token is refunded.
func TestFailsafeCancelledDuringTheRetryDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, stop := context.WithCancel(t.Context())
		defer stop()
		time.AfterFunc(50*ms, stop)
		b := newBudget(t, retry.BudgetConfig{Percent: 1})
		var events int
		ex := newExecutor(t, retry.Config{Policy: retrySame(), Budget: b,
			Backoff: func(int) time.Duration { return time.Second },
			OnRetry: func(retry.RetryEvent) { events++ }})
		cl := newCluster()
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 1, retry.ErrServerError)}, cl.attempt)
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, retry.ErrServerError)
		assert.Equal(t, 50*ms, cl.elapsed())
		assert.Len(t, cl.log(), 1)
		assert.Equal(t, 1, events)
		assert.Zero(t, ex.Metrics().TotalRetries())
		assert.Equal(t, 1.0, b.Available(time.Now()), "the retry's token is refunded")
	})
}

// The same wait with a deadline instead: a retry whose wait would pass the
// deadline is not made (failsafe-go would wait and fail at the deadline),
// and the caller keeps the time that remains.
func TestFailsafeDelayPastTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, stop := context.WithTimeout(t.Context(), 500*ms)
		defer stop()
		ex := newExecutor(t, retry.Config{Policy: retrySame(),
			Backoff: func(int) time.Duration { return time.Second }})
		cl := newCluster()
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 1, retry.ErrServerError)}, cl.attempt)
		assert.ErrorIs(t, err, retry.ErrBackoffPastDeadline)
		assert.ErrorIs(t, err, retry.ErrServerError)
		assert.Zero(t, cl.elapsed())
		assert.NoError(t, ctx.Err())
		assert.Equal(t, uint64(1), ex.Metrics().Exhausted)
	})
}

// "should fail when max duration exceeded" (100 ms, the second attempt takes
// 120 ms): failsafe-go lets that attempt finish and fails with ExceededError
// after 2 attempts; here the deadline cancels it at 100 ms and the statement
// fails with context.DeadlineExceeded after 2 attempts.
func TestFailsafeDeadlineEndsTheSecondAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, stop := context.WithTimeout(t.Context(), 100*ms)
		defer stop()
		ex := newExecutor(t, retry.Config{Policy: retrySame()})
		cl := newCluster()
		tg := target{name: "a", delay: 0, errs: []error{retry.ErrServerError}}
		slow := func(ctx context.Context, tg target, l c.Level) (string, error) {
			if len(cl.log()) == 1 {
				tg.delay = 120 * ms
			}
			return cl.attempt(ctx, tg, l)
		}
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), []target{tg}, slow)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, 2, ee.Attempts.Len())
		assert.Equal(t, 100*ms, cl.elapsed())
		assert.True(t, cl.log()[1].cancelled)
	})
}

// Cancellation mid-attempt in speculative execution: every attempt is
// cancelled, Execute returns once all have returned, and each is in the
// history with what it returned.
func TestFailsafeContextEndsEveryHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, stop := context.WithCancel(t.Context())
		defer stop()
		time.AfterFunc(50*ms, stop)
		ex := hedging(t, retry.FixedDelay(10*ms), 2)
		cl := newCluster()
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent),
			[]target{{name: "a", delay: never}, {name: "b", delay: never}, {name: "c", delay: never}}, cl.attempt)
		assert.ErrorIs(t, err, context.Canceled)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, 50*ms, cl.elapsed())
		assert.Equal(t, 3, ee.Attempts.Len())
		for _, call := range cl.log() {
			assert.True(t, call.cancelled, call.target)
		}
	})
}
