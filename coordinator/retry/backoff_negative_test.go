package retry_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Config.Backoff says "A wait <= 0 means none", so a negative wait is the
// same as a zero one; and a retry whose wait would end at or after the
// context's deadline is not made (ErrBackoffPastDeadline). A zero wait
// judged once the deadline has come is refused (see
// TestNoRetryWithoutBackoffPastTheDeadline); a negative one slipped past
// the check (now.Add(-1ms) is before the deadline), and the retry ran past
// the deadline at the downgraded level.
func TestNegativeBackoffPastTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var events []retry.RetryEvent
		ex, err := retry.NewExecutor(retry.Config{
			Policy:  retry.DowngradingPolicy{},
			Backoff: func(int) time.Duration { return -time.Millisecond }, // "<= 0 means none"
			OnRetry: func(e retry.RetryEvent) { events = append(events, e) },
		})
		if err != nil {
			t.Fatal(err)
		}
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
