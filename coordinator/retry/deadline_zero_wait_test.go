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

// A retry with no backoff, judged when the context's deadline has come but
// before the context's timer has ended it, is not made: its wait of zero
// ends at the deadline, and a retry whose wait would end at or after the
// deadline is not made. It was, at a downgraded level, to a target whose
// context was about to end (found by a review of the retry layer).
//
// The attempt fails at exactly the deadline; which of its timer and the
// context's runs first at that instant is the scheduler's choice, so the
// test repeats the statement: about half the runs retried at the deadline.
func TestNoRetryWithoutBackoffAtTheDeadline(t *testing.T) {
	for _, spec := range []bool{false, true} {
		late := 0
		for range 100 {
			synctest.Test(t, func(t *testing.T) {
				cfg := retry.Config{Policy: retry.DowngradingPolicy{}}
				if spec {
					cfg.Speculation = retry.FixedDelay(time.Second) // speculating, but none falls due
				}
				ex, err := retry.NewExecutor(cfg)
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
				defer cancel()
				deadline, _ := ctx.Deadline()
				calls := 0
				attempt := func(ctx context.Context, _ int, l c.Level) (string, error) {
					calls++
					if calls > 1 && !time.Now().Before(deadline) {
						late++
					}
					if calls == 1 {
						time.Sleep(time.Until(deadline))
						return "", &c.ReadTimeoutError{Level: l, BlockFor: 2, Received: 1}
					}
					return "ok", nil
				}
				_, _ = retry.Execute(ctx, ex, retry.Statement{Level: c.Quorum, Idempotent: retry.Idempotent},
					[]int{0, 1, 2}, attempt)
			})
		}
		assert.Zero(t, late, "speculating=%v: retries started at or after the context's deadline, of 100 statements", spec)
	}
}

// laggingContext reports a deadline its Done channel closes a little
// after, as a real context's timer fires some time after its deadline on
// a busy machine.
type laggingContext struct {
	context.Context
	deadline time.Time
}

func (l laggingContext) Deadline() (time.Time, bool) { return l.deadline, true }

// The same, deterministic: the deadline has passed when the failure is
// judged and the context has not yet ended; the statement ends with
// ErrBackoffPastDeadline, at its own level. A negative wait is none too
// (Config.Backoff: "A wait <= 0 means none"): it slipped past the check
// (now.Add(-1ms) is before the deadline) and showed in RetryEvent.Delay.
func TestNoRetryWithoutBackoffPastTheDeadline(t *testing.T) {
	t.Run("default", func(t *testing.T) { noRetryPastTheDeadline(t, nil) })
	t.Run("negative", func(t *testing.T) {
		noRetryPastTheDeadline(t, func(int) time.Duration { return -time.Millisecond })
	})
}

func noRetryPastTheDeadline(t *testing.T, backoff retry.Backoff) {
	synctest.Test(t, func(t *testing.T) {
		var events []retry.RetryEvent
		ex, err := retry.NewExecutor(retry.Config{
			Policy:  retry.DowngradingPolicy{},
			Backoff: backoff,
			OnRetry: func(e retry.RetryEvent) { events = append(events, e) },
		})
		require.NoError(t, err)
		inner, cancel := context.WithTimeout(context.Background(), 51*time.Millisecond)
		defer cancel()
		ctx := laggingContext{Context: inner, deadline: time.Now().Add(50 * time.Millisecond)}
		var starts []time.Duration
		start := time.Now()
		attempt := func(ctx context.Context, _ int, l c.Level) (string, error) {
			starts = append(starts, time.Since(start))
			if len(starts) == 1 {
				time.Sleep(50 * time.Millisecond)
				return "", &c.ReadTimeoutError{Level: l, BlockFor: 2, Received: 1}
			}
			return "ok", nil
		}
		res, err := retry.Execute(ctx, ex, retry.Statement{Level: c.Quorum}, []int{0}, attempt)
		assert.Len(t, starts, 1, "a retry started at %v, past the 50ms deadline", starts)
		assert.ErrorIs(t, err, retry.ErrBackoffPastDeadline)
		assert.Equal(t, c.Quorum, res.Level, "no downgraded retry served the statement")
		for _, e := range events {
			assert.GreaterOrEqual(t, e.Delay, time.Duration(0), "RetryEvent.Delay is \"the backoff, 0 for none\"")
		}
	})
}
