package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
)

// The caller's deadline, shorter than the read timeout, ends the read with
// a ReadTimeoutError (too few answers, so DowngradingPolicy would retry at
// ONE): the executor must see the context ended and stop, whether or not
// the statement speculates, and the deadline may come at any instant of
// the read, its own timer's included.
func TestRetryOverReadsCallerDeadlineIsNotRetried(t *testing.T) {
	for _, spec := range []bool{false, true} {
		for _, after := range []time.Duration{ms(3), ms(20), ms(50)} {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
				e.behave(t, B, constant(ms(1000)))
				e.behave(t, C, constant(ms(1000)))
				other := newEnvOn(t, e.cluster, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")}).c
				cfg := retry.Config{}
				if spec {
					cfg.Speculation, cfg.SpeculativeExecutions = retry.FixedDelay(ms(1)), 1
				}
				ex, _ := riDowngrader(t, cfg)
				ctx, cancel := context.WithTimeout(context.Background(), after)
				defer cancel()
				s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
				res, err := retry.Execute(ctx, ex, s, []*coordinator.Coordinator{e.c, other, e.c}, riRead)
				var xe *retry.ExecutionError
				require.ErrorAs(t, err, &xe, "spec %v after %v", spec, after)
				if after < ms(50) {
					assert.ErrorIs(t, xe.Reason, context.DeadlineExceeded, "spec %v after %v", spec, after)
					for i := range res.Attempts.Len() {
						assert.NotEqual(t, consistency.One, res.Attempts.At(i).Level, "no downgraded retry")
					}
					assert.Zero(t, ex.Metrics().TotalRetries(), "spec %v after %v", spec, after)
				}
			})
		}
	}
}

// A caller's deadline at exactly the instant of the read timeout: the read
// fails with the timeout (the coordinator's timer and the context's are
// due together) and the executor must not retry past the deadline.
func TestRetryOverReadsDeadlineAtTheReadTimeoutIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
		e.behave(t, B, constant(ms(1000)))
		e.behave(t, C, constant(ms(1000)))
		ex, _ := riDowngrader(t, retry.Config{})
		ctx, cancel := context.WithTimeout(context.Background(), ms(50))
		defer cancel()
		res, err := retry.Execute(ctx, ex, retry.Statement{Level: consistency.Quorum}, []*coordinator.Coordinator{e.c}, riRead)
		var xe *retry.ExecutionError
		require.ErrorAs(t, err, &xe)
		assert.ErrorIs(t, xe.Reason, context.DeadlineExceeded)
		assert.Equal(t, 1, res.Attempts.Len())
		var rt *consistency.ReadTimeoutError
		require.ErrorAs(t, xe.Err, &rt)
		assert.ErrorIs(t, rt, context.DeadlineExceeded, "the timeout carries the caller's deadline")
	})
}

// A read the caller cancels fails with an error wrapping context.Canceled
// and the caller's cause: never judged, never retried, in either path.
func TestRetryOverReadsCancelledReadIsNotRetried(t *testing.T) {
	cause := errors.New("user went away")
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
			for _, id := range []string{A, B, C} {
				e.behave(t, id, constant(ms(100)))
			}
			cfg := retry.Config{}
			if spec {
				cfg.Speculation, cfg.SpeculativeExecutions = retry.FixedDelay(ms(1)), 2
			}
			ex, err := retry.NewExecutor(cfg)
			require.NoError(t, err)
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(ms(10), func() { cancel(cause) })
			s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
			res, err := retry.Execute(ctx, ex, s, []*coordinator.Coordinator{e.c, e.c, e.c}, riRead)
			var xe *retry.ExecutionError
			require.ErrorAs(t, err, &xe)
			assert.ErrorIs(t, xe.Reason, context.Canceled)
			assert.ErrorIs(t, xe.Reason, cause)
			assert.ErrorIs(t, xe.Err, context.Canceled)
			assert.Zero(t, ex.Metrics().TotalRetries())
			for i := range res.Attempts.Len() {
				assert.Equal(t, retry.Rethrow, res.Attempts.At(i).Verdict.Decision)
			}
		})
	}
}

// A per-attempt deadline set inside the attempt (shorter than the
// statement's) is a read timeout like any other: DowngradingPolicy
// retries it at ONE, and the retry succeeds.
func TestRetryOverReadsPerAttemptDeadlineIsRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		e.behave(t, B, constant(ms(1000)))
		ex, _ := riDowngrader(t, retry.Config{})
		attempt := func(ctx context.Context, c *coordinator.Coordinator, l consistency.Level) (coordinator.Result, error) {
			ctx, cancel := context.WithTimeout(ctx, ms(20))
			defer cancel()
			return riRead(ctx, c, l)
		}
		res, err := retry.Execute(context.Background(), ex, retry.Statement{Level: consistency.Quorum},
			[]*coordinator.Coordinator{e.c}, attempt)
		require.NoError(t, err)
		assert.Equal(t, consistency.One, res.Level)
		assert.Equal(t, retry.CauseReadTimeout, res.Attempts.At(0).Cause)
	})
}
