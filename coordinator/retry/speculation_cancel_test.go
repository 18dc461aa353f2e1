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

// A context that ends while a speculating statement's retry waits out its
// backoff must report the failure that led to the retry, as the sequential
// path does: ExecutionError.Err is "nil if the context ended the statement
// before any attempt failed", and Level is that failed attempt's level.
func TestCancelDuringBackoffKeepsTheFailure(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			ladder, err := retry.NewLadderPolicy(c.Two, c.One)
			require.NoError(t, err)
			cfg := retry.Config{
				Policy: ladder,
				// the first retry at once, the second after an hour
				Backoff: func(n int) time.Duration { return time.Duration(n) * time.Hour },
			}
			if spec {
				cfg.Speculation = retry.FixedDelay(time.Hour)
			}
			ex := newExecutor(t, cfg)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			time.AfterFunc(10*ms, cancel)
			first, second := readTimeout(c.Quorum, 2, 1, false), readTimeout(c.Two, 2, 1, false)
			plan := []target{{name: "a", errs: []error{first, second}}, {name: "b"}}
			cl := newCluster()
			res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
			var xe *retry.ExecutionError
			require.ErrorAs(t, err, &xe)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, error(second), xe.Err, "speculating=%v: the last failure is lost", spec)
			assert.Equal(t, c.Two, xe.Level, "speculating=%v: the level of the last failed attempt", spec)
			assert.Equal(t, c.Two, res.Level, "speculating=%v", spec)
			assert.True(t, res.Downgraded(), "speculating=%v", spec)
			assert.Equal(t, 2, res.Attempts.Len())
		})
	}
}

// A context that ends while the retry is being decided (here, from OnRetry)
// must end a speculating statement with the context's error as Reason, as the
// sequential path does, not with a nil Reason.
func TestCancelWhileDecidingARetryIsTheReason(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			cfg := retry.Config{OnRetry: func(retry.RetryEvent) { cancel() }}
			if spec {
				cfg.Speculation = retry.FixedDelay(time.Hour)
			}
			ex := newExecutor(t, cfg)
			plan := []target{{name: "a", errs: []error{retry.ErrOverloaded}}, {name: "b"}}
			cl := newCluster()
			_, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
			var xe *retry.ExecutionError
			require.ErrorAs(t, err, &xe)
			assert.NotNil(t, xe.Reason, "speculating=%v: %v", spec, err)
			assert.True(t, errors.Is(err, context.Canceled), "speculating=%v: %v", spec, err)
			assert.ErrorIs(t, err, retry.ErrOverloaded)
		})
	}
}

// "A panic in an attempt reaches the caller of Execute, even from a
// speculative attempt's goroutine": also from a losing attempt that panics
// once cancelled, after another attempt has won.
func TestPanicOfACancelledLoserReachesTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(10*ms))
		attempt := func(ctx context.Context, name string, _ c.Level) (string, error) {
			if name == "b" {
				return name, nil
			}
			<-ctx.Done()
			panic("loser panicked")
		}
		p := panicOf(func() {
			_, _ = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"a", "b"}, attempt)
		})
		var ap *retry.AttemptPanicError
		require.ErrorAs(t, asErr(p), &ap)
		assert.Equal(t, "loser panicked", ap.Value)
	})
}

// A deadline that ends the statement with attempts in flight: they return
// with the context's error, and the ExecutionError and the Result carry
// them, speculating or not.
func TestContextEndRecordsTheAttemptsInFlight(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cfg := retry.Config{}
			inFlight := 1
			if spec {
				cfg.Speculation, inFlight = retry.FixedDelay(10*ms), 2
			}
			ex := newExecutor(t, cfg)
			ctx, cancel := context.WithTimeout(t.Context(), 50*ms)
			defer cancel()
			cl := newCluster()
			plan := []target{{name: "a", delay: 500 * ms}, {name: "b", delay: 500 * ms}, {name: "c"}}
			res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
			var xe *retry.ExecutionError
			require.ErrorAs(t, err, &xe)
			assert.Equal(t, context.DeadlineExceeded, xe.Reason)
			assert.Equal(t, context.DeadlineExceeded, xe.Err, "speculating=%v", spec)
			attempts := map[int]string{1: "1 attempt", 2: "2 attempts"}[inFlight]
			assert.Equal(t, "context deadline exceeded after "+attempts+": context deadline exceeded", err.Error())
			require.Equal(t, inFlight, res.Attempts.Len(), "speculating=%v", spec)
			for i, a := range res.Attempts.All() {
				assert.Equal(t, context.DeadlineExceeded, a.Err, "attempt %d", i)
			}
			assert.Equal(t, 50*ms, cl.elapsed())
		})
	}
}
