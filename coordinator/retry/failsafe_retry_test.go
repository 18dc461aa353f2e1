package retry_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Ports of failsafe-go's retry policy tests (test/retrypolicy_test.go,
// retrypolicy/retryexecutor_test.go, test/delayablepolicy_test.go). Where
// failsafe-go counts attempts (WithMaxAttempts), readpath counts retries:
// failsafe-go's default of 3 attempts is MaxRetries 2 here.

// retrySame answers every failure with RetrySame at the failed level, as a
// failsafe-go RetryPolicy that handles every error.
func retrySame() *recorder {
	return &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
}

// failing is a target whose first n attempts fail with err.
func failing(name string, n int, err error) target {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return target{name: name, errs: errs}
}

// TestRetryPolicy "should retry on failure" and "should return
// ExceededError": 3 attempts, 2 retries, one exhaustion, and the final error
// wraps both the limit and the last attempt's error (failsafe-go's
// ExceededError.LastError).
func TestFailsafeRetriesUntilTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := retrySame()
		ex := newExecutor(t, retry.Config{Policy: pol, MaxRetries: 2})
		cl := newCluster()
		last := fmt.Errorf("attempt 3: %w", retry.ErrServerError)
		tg := target{name: "a", errs: []error{retry.ErrServerError, retry.ErrServerError, last}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []target{tg}, cl.attempt)
		require.Error(t, err)
		assert.ErrorIs(t, err, retry.ErrTooManyRetries)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Same(t, last, ee.Err, "the last attempt's error, not the first")
		assert.Equal(t, 3, ee.Attempts.Len())
		assert.Equal(t, 3, len(cl.log()))
		assert.Len(t, pol.questions(), 3, "the policy judged every failure, the third before the limit refused it")
		m := ex.Metrics()
		assert.Equal(t, uint64(2), m.TotalRetries())
		assert.Equal(t, uint64(1), m.Exhausted)
		assert.Zero(t, m.RetrySuccesses)
		assert.Empty(t, res.Value)
	})
}

// TestRetryPolicy "should not retry on success".
func TestFailsafeNoRetryOnSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := retrySame()
		ex := newExecutor(t, retry.Config{Policy: pol, MaxRetries: 2})
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []target{{name: "a"}}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, 1, res.Attempts.Len())
		assert.Empty(t, pol.questions())
		assert.Zero(t, ex.Metrics().TotalRetries())
	})
}

// TestRetryPolicy "should return last failure" (WithMaxRetries(3)): 4
// attempts and the error is the last one's. readpath always returns both the
// attempt's error and the reason (ReturnLastFailure and ExceededError at once).
func TestFailsafeReturnsLastFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retrySame(), MaxRetries: 3})
		cl := newCluster()
		cause := errors.New("test")
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 10, cause)}, cl.attempt)
		assert.ErrorIs(t, err, cause)
		assert.ErrorIs(t, err, retry.ErrTooManyRetries)
		assert.Len(t, cl.log(), 4)
	})
}

// TestRetryPolicy "should not retry on non-retriable failure": the handled
// failures are retried and the third attempt succeeds; an unhandled one is
// returned after one attempt. Here DefaultPolicy handles ErrOverloaded (next
// target) and not a read failure.
func TestFailsafeRetriesOnlyHandledFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		plan := []target{failing("a", 1, retry.ErrOverloaded), failing("b", 1, retry.ErrOverloaded), {name: "c"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value)
		assert.Equal(t, 3, res.Attempts.Len())
		assert.Equal(t, uint64(1), ex.Metrics().RetrySuccesses)

		failure := &c.ReadFailureError{Level: c.One, BlockFor: 1, Failures: 1}
		plan = []target{failing("d", 1, failure), {name: "e"}}
		_, err = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		assert.ErrorIs(t, err, retry.ErrRethrown)
		assert.ErrorAs(t, err, new(*c.ReadFailureError))
		assert.Equal(t, []string{"a", "b", "c", "d"}, targets(cl.log()))
	})
}

// TestRetryPolicy "unlimited attempts" (WithMaxAttempts(-1), 5 failures then
// success, 6 attempts). readpath bounds every retry (DESIGN.md §2.8):
// MaxRetries -1 is refused, and the default limit of 8 lets the 6th attempt
// succeed.
func TestFailsafeNoUnlimitedRetries(t *testing.T) {
	_, err := retry.NewExecutor(retry.Config{MaxRetries: -1})
	var ce *retry.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Config.MaxRetries", ce.Field)

	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retrySame()})
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 5, retry.ErrServerError)}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, 6, res.Attempts.Len())
		assert.Equal(t, uint64(5), ex.Metrics().TotalRetries())
	})
}

// TestRetryPolicy "with backoff delay" (1 ms to 10 ms, 6 retries: 1, 2, 4, 8,
// 10, 10 ms) and retryexecutor_test.go TestGetFixedOrRandomDelay (2 s to 30
// s: 2, 4, 8, 16, 30 s). failsafe-go waits exactly those; readpath's full
// jitter draws each wait from [0, ceiling), so the ceilings are the vector,
// every wait OnRetry reports lies below its ceiling, and the waits are what
// the statement spends between attempts.
func TestFailsafeBackoffCeilings(t *testing.T) {
	small := retry.ExponentialBackoff{Base: ms, Cap: 10 * ms}
	big := retry.ExponentialBackoff{Base: 2 * time.Second, Cap: 30 * time.Second, Multiplier: 2}
	for n, want := range []time.Duration{ms, 2 * ms, 4 * ms, 8 * ms, 10 * ms, 10 * ms} {
		assert.Equal(t, want, small.Ceiling(n), "retry %d", n)
	}
	for n, want := range []time.Duration{2, 4, 8, 16, 30} {
		assert.Equal(t, want*time.Second, big.Ceiling(n), "retry %d", n)
	}

	synctest.Test(t, func(t *testing.T) {
		var events []retry.RetryEvent
		bo := small
		bo.Rand = rand.NewPCG(1, 2)
		ex := newExecutor(t, retry.Config{Policy: retrySame(), MaxRetries: 6, ExponentialBackoff: bo,
			OnRetry: func(e retry.RetryEvent) { events = append(events, e) }})
		cl := newCluster()
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 10, retry.ErrServerError)}, cl.attempt)
		assert.ErrorIs(t, err, retry.ErrTooManyRetries)
		require.Len(t, events, 6)
		var sum time.Duration
		for i, e := range events {
			assert.Equal(t, i+1, e.Retry)
			assert.GreaterOrEqual(t, e.Delay, time.Duration(0))
			assert.Less(t, e.Delay, small.Ceiling(i), "retry %d", i+1)
			sum += e.Delay
			assert.Equal(t, sum, cl.log()[i+1].at, "retry %d starts after the waits before it", i+1)
		}
		assert.Positive(t, sum)
	})
}

// delayablepolicy_test.go TestShouldDelayRetryPolicy: the delay function is
// asked once per retry, never for an attempt that succeeded.
func TestFailsafeBackoffAskedOncePerRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var asked []int
		ex := newExecutor(t, retry.Config{Policy: retrySame(), MaxRetries: 2,
			Backoff: func(n int) time.Duration { asked = append(asked, n); return ms }})
		cl := newCluster()
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []target{{name: "a"}}, cl.attempt)
		require.NoError(t, err)
		assert.Empty(t, asked)
		_, err = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("b", 10, retry.ErrServerError)}, cl.attempt)
		assert.ErrorIs(t, err, retry.ErrTooManyRetries)
		assert.Equal(t, []int{0, 1}, asked)
	})
}

// delayablepolicy_test.go TestPanicInRetryPolicyDelayFunction: a delay
// function that panics reaches the caller.
func TestFailsafeBackoffPanicReachesTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retrySame(),
			Backoff: func(int) time.Duration { panic("test") }})
		cl := newCluster()
		assert.Panics(t, func() {
			_, _ = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
				[]target{failing("a", 1, retry.ErrServerError)}, cl.attempt)
		})
	})
}
