package retry_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A retry whose backoff ends as the context is cancelled either starts
// before the cancellation, or never starts, speculating or not: the
// attempt function is never called with a context that had already ended,
// and a retry that does not start is not counted and its budget token goes
// back, as Metrics.Retries and Config.Budget say of a retry the context
// cancels during its backoff. The sequential path looks at the context
// after the wait; a speculating statement's retry started as soon as its
// timer fired, and when the cancellation ran before the retry's goroutine
// did, the attempt was called with the ended context, counted as a retry,
// and its budget token kept.
func TestARetryWhoseBackoffEndsAsTheContextIsCancelledNeverStarts(t *testing.T) {
	// One P runs the retry's goroutine and the cancellation one after the
	// other, never side by side: a cancellation that lands between the
	// executor's last look at the context and the attempt's first is a
	// race no executor can close.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, spec := range []bool{false, true} {
		for i := range 64 { // which of the two goroutines runs first is the scheduler's
			synctest.Test(t, func(t *testing.T) {
				b := newBudget(t, retry.BudgetConfig{MinPerSecond: 1, Window: time.Hour})
				cfg := retry.Config{Budget: b, Backoff: func(int) time.Duration { return time.Second }}
				if spec {
					cfg.Speculation = retry.FixedDelay(time.Hour)
				}
				ex := newExecutor(t, cfg)
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				calls, late := 0, 0
				_, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), []int{0, 1},
					func(actx context.Context, _ int, _ c.Level) (int, error) {
						if calls++; calls == 1 {
							time.AfterFunc(time.Second, cancel) // as the backoff ends
							return 0, unavailable(c.Quorum, 2, 1)
						}
						if ctx.Err() != nil {
							late++
						}
						return 0, actx.Err()
					})
				require.Zero(t, late, "speculative=%v, run %d: a retry started after the caller's context ended", spec, i)
				if calls == 2 {
					return // it started before the cancellation ran: a fair race
				}
				require.ErrorIs(t, err, context.Canceled, "speculative=%v, run %d", spec, i)
				var ee *retry.ExecutionError
				require.True(t, errors.As(err, &ee))
				require.Zero(t, ex.Metrics().TotalRetries(), "speculative=%v, run %d", spec, i)
				require.InDelta(t, 3600.0, b.Available(time.Now()), 1e-9, "speculative=%v, run %d: the retry's token was kept", spec, i)
			})
		}
	}
}
