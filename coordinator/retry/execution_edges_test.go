package retry_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A read timeout whose cause matches ErrNotSent (its context was cancelled
// with that cause) was sent: its retry counts, and DefaultPolicy retries it
// once, not until MaxRetries as a retry after a request never sent.
func TestATimeoutWhoseCauseIsNotSentCounts(t *testing.T) {
	ex := newExecutor(t, retry.Config{})
	calls := 0
	_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"},
		func(ctx context.Context, _ string, l c.Level) (string, error) {
			calls++
			return "", &c.ReadTimeoutError{Level: l, BlockFor: 2, Received: 2,
				Cause: fmt.Errorf("%w: %w", context.DeadlineExceeded, retry.ErrNotSent)}
		})
	require.Error(t, err)
	assert.Equal(t, 2, calls, "the first attempt and one retry")
}

// A SpeculativeExecutions of MaxInt, which NewExecutor accepts, runs as
// many chains as the plan has targets: 1+MaxInt overflowed to a negative
// channel size, and Execute panicked.
func TestTheMostSpeculativeExecutionsRunsThePlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), SpeculativeExecutions: math.MaxInt})
		attempt := func(context.Context, string, c.Level) (string, error) { return "ok", nil }
		require.Nil(t, panicOf(func() {
			_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"a", "b"}, attempt)
			require.NoError(t, err)
		}))
	})
}

// joinsItself is an error whose Unwrap lists itself: an endless tree.
type joinsItself struct{}

func (joinsItself) Error() string     { return "joins itself" }
func (e joinsItself) Unwrap() []error { return []error{e} }

// An attempt whose error wraps itself is an error response, told as such:
// walking its endless tree overflowed the stack, a crash no recover
// catches.
func TestAnAttemptErrorThatWrapsItselfIsAnErrorResponse(t *testing.T) {
	ex := newExecutor(t, retry.Config{})
	res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"},
		func(context.Context, string, c.Level) (string, error) { return "", joinsItself{} })
	require.ErrorContains(t, err, "wrap itself")
	assert.Equal(t, retry.CauseErrorResponse, res.Attempts.At(0).Cause)
}

// An attempt of a speculating statement that calls runtime.Goexit (as
// testing's FailNow does) ends Execute's caller's goroutine, once the
// others have returned, as it would without speculation: its goroutine
// exited without an outcome, which the executor waited for forever.
func TestASpeculativeAttemptThatGoexitsEndsTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(ms)})
		returned, exited := false, make(chan struct{})
		go func() {
			defer close(exited)
			_, _ = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"a", "b"},
				func(ctx context.Context, target string, _ c.Level) (string, error) {
					if target == "a" {
						runtime.Goexit()
					}
					<-ctx.Done() // b runs until cancelled
					return "", ctx.Err()
				})
			returned = true
		}()
		synctest.Wait()
		select {
		case <-exited:
		default:
			t.Fatal("Execute is blocked")
		}
		assert.False(t, returned, "Execute returned to its caller")
	})
}

// When the context has ended a speculating statement and both its attempts
// ignore it, the first to succeed after all wins, and one that finishes
// after it lost to it: it is not recorded, as no loser to a winner is.
// A second late success was recorded as succeeded (with the context's
// error as its reason), and a later failure before the winner, out of the
// order the attempts finished in.
func TestALateWinnersHistoryEndsWithIt(t *testing.T) {
	for _, second := range []error{nil, errors.New("boom")} {
		synctest.Test(t, func(t *testing.T) {
			ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(ms)})
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(5*ms, cancel)
			res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"},
				func(_ context.Context, target string, _ c.Level) (string, error) {
					if target == "a" {
						time.Sleep(10 * ms) // ignores ctx, and succeeds
						return "a", nil
					}
					time.Sleep(20 * ms)
					return "b", second
				})
			require.NoError(t, err)
			assert.Equal(t, "a", res.Value)
			require.Equal(t, 1, res.Attempts.Len(), "%v", res.Attempts.All())
			r := res.Attempts.At(0)
			assert.Equal(t, 0, r.Target)
			assert.NoError(t, r.Err)
			assert.NoError(t, r.Reason)
		})
	}
}
