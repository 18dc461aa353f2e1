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

var overloaded = retry.ErrOverloaded

func TestExecuteSucceedsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ex retry.Executor // the zero Executor is ready
		cl := newCluster()
		res, err := retry.Execute(t.Context(), &ex, stmt(c.Quorum, retry.IdempotenceUnset),
			[]target{{name: "a", delay: 3 * time.Millisecond}, {name: "b"}}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, c.Quorum, res.Level)
		assert.False(t, res.Downgraded())
		assert.True(t, retry.Result[string]{Level: c.One, Requested: c.Quorum}.Downgraded(), "a value's method")
		assert.False(t, res.Ignored)
		require.Equal(t, 1, res.Attempts.Len())
		assert.Equal(t, retry.AttemptRecord{Target: 0, Level: c.Quorum}, res.Attempts.At(0))
		assert.Equal(t, 3*time.Millisecond, cl.elapsed())
		assert.Equal(t, retry.Metrics{Executions: 1}, ex.Metrics())
	})
}

func TestRetryNextMovesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		plan := []target{
			{name: "a", delay: 5 * time.Millisecond, errs: []error{unavailable(c.Quorum, 2, 1)}},
			{name: "b", delay: 10 * time.Millisecond},
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "b", res.Value)
		assert.Equal(t, 15*time.Millisecond, cl.elapsed())
		assert.Equal(t, []call{{target: "a", level: c.Quorum}, {target: "b", level: c.Quorum, at: 5 * time.Millisecond}}, cl.log())
		require.Equal(t, 2, res.Attempts.Len())
		first := res.Attempts.At(0)
		assert.Equal(t, retry.CauseUnavailable, first.Cause)
		assert.Equal(t, next(c.Quorum), first.Verdict)
		assert.Equal(t, 1, res.Attempts.At(1).Target)
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.Retries[retry.CauseUnavailable])
		assert.Equal(t, uint64(1), m.RetrySuccesses)
	})
}

func TestRetrySameStaysOnTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		plan := []target{{name: "a", delay: time.Millisecond, errs: []error{readTimeout(c.Quorum, 2, 2, false)}}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, []string{"a", "a"}, targets(cl.log()))
		assert.Equal(t, uint64(1), ex.Metrics().Retries[retry.CauseReadTimeout])
	})
}

func TestPlanRunsOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b", errs: []error{overloaded}},
			{name: "c", errs: []error{overloaded}}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		assert.Zero(t, res.Value)
		assert.Equal(t, c.One, res.Level, "a failed result reports the last attempt's level")
		require.ErrorIs(t, err, retry.ErrPlanExhausted)
		assert.ErrorIs(t, err, retry.ErrOverloaded)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, 3, ee.Attempts.Len())
		assert.Equal(t, "retry: no target left in the plan after 3 attempts: retry: coordinator overloaded", err.Error())
		m := ex.Metrics()
		assert.Equal(t, uint64(2), m.Retries[retry.CauseErrorResponse])
		assert.Equal(t, uint64(1), m.Exhausted)
	})
}

func TestIgnoreSucceedsWithoutValue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{}})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{writeTimeout(c.Quorum, c.WriteSimple, 2, 1)}}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.True(t, res.Ignored)
		assert.Empty(t, res.Value)
		assert.Equal(t, c.One, res.Level, "one replica of the two acknowledged it")
		assert.True(t, res.Downgraded())
		assert.Equal(t, ignored(c.Quorum), res.Attempts.At(0).Verdict)
		assert.Len(t, cl.log(), 1)
		assert.Equal(t, uint64(1), ex.Metrics().Ignores)
	})
}

func TestContextCancelledMidBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Backoff: func(int) time.Duration { return time.Second }})
		cl := newCluster()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(500*time.Millisecond, cancel)
		plan := []target{{name: "a", delay: 10 * time.Millisecond, errs: []error{overloaded}}, {name: "b"}}
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		assert.Equal(t, 500*time.Millisecond, cl.elapsed())
		require.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, retry.ErrOverloaded)
		assert.Equal(t, []string{"a"}, targets(cl.log()))
	})
}

func TestBackoffBetweenAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []int
		backoff := func(n int) time.Duration { seen = append(seen, n); return 10 * time.Millisecond << n }
		ex := newExecutor(t, retry.Config{Backoff: backoff})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b", errs: []error{overloaded}}, {name: "c"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		var at []time.Duration
		for _, call := range cl.log() {
			at = append(at, call.at)
		}
		assert.Equal(t, []time.Duration{0, 10 * time.Millisecond, 30 * time.Millisecond}, at)
		assert.Equal(t, []int{0, 1}, seen)
	})
}

// The caller's own deadline ends execution; the attempt's context error is
// not judged by the policy.
func TestCallerDeadlineIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := &recorder{}
		ex := newExecutor(t, retry.Config{Policy: pol})
		cl := newCluster()
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		plan := []target{{name: "a", delay: time.Second}, {name: "b"}}
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 50*time.Millisecond, cl.elapsed())
		assert.Empty(t, pol.questions())
		assert.Equal(t, []string{"a"}, targets(cl.log()))

		_, err = retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Len(t, cl.log(), 1, "no attempt once the context is done")
	})
}

func TestDowngradeIsReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []retry.Downgrade
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{},
			OnDowngrade: func(d retry.Downgrade) { got = append(got, d) }})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{readTimeout(c.Quorum, 2, 1, false)}}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, c.One, res.Level)
		assert.Equal(t, c.Quorum, res.Requested)
		assert.True(t, res.Downgraded())
		assert.Equal(t, []retry.Downgrade{{Requested: c.Quorum, From: c.Quorum, To: c.One,
			Cause: retry.CauseReadTimeout, Target: 0, Retry: 1}}, got)
		assert.Equal(t, []call{{target: "a", level: c.Quorum}, {target: "a", level: c.One}}, cl.log())
		assert.Equal(t, uint64(1), ex.Metrics().Downgrades)
	})
}

func TestLadderDowngradesEachRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ladder, err := retry.NewLadderPolicy(c.Two, c.One)
		require.NoError(t, err)
		var got []retry.Downgrade
		ex := newExecutor(t, retry.Config{Policy: ladder, OnDowngrade: func(d retry.Downgrade) { got = append(got, d) }})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1), unavailable(c.Two, 2, 1)}}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, c.One, res.Level)
		assert.Equal(t, []c.Level{c.Quorum, c.Two, c.One}, levels(cl.log()))
		require.Len(t, got, 2)
		assert.Equal(t, retry.Downgrade{Requested: c.Quorum, From: c.Two, To: c.One,
			Cause: retry.CauseUnavailable, Retry: 2}, got[1])
	})
}

// Every attempt at a level other than the statement's is a downgrade, as
// OnDowngrade's doc says, also one that keeps the level of the downgraded
// attempt before it: a lost connection at ONE moves to b at ONE.
func TestARetryAtTheDowngradedLevelIsADowngradeToo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []retry.Downgrade
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{},
			OnDowngrade: func(d retry.Downgrade) { got = append(got, d) }})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{readTimeout(c.Quorum, 2, 1, false),
			&retry.RequestAbortedError{Err: retry.ErrConnectionClosed}}}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "b", res.Value)
		assert.Equal(t, []c.Level{c.Quorum, c.One, c.One}, levels(cl.log()))
		require.Len(t, got, 2)
		assert.Equal(t, retry.Downgrade{Requested: c.Quorum, From: c.One, To: c.One,
			Cause: retry.CauseRequestAborted, Target: 1, Retry: 2}, got[1])
		assert.Equal(t, uint64(2), ex.Metrics().Downgrades)
	})
}

// A statement's own policy is an execution profile: it replaces the
// executor's.
func TestStatementPolicyOverrides(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retry.DefaultPolicy{}})
		cl := newCluster()
		s := stmt(c.Quorum, retry.Idempotent)
		s.Policy = retry.FallthroughPolicy{}
		plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "b"}}
		_, err := retry.Execute(t.Context(), ex, s, plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrRethrown)
		var un *c.UnavailableError
		assert.ErrorAs(t, err, &un)
		assert.Len(t, cl.log(), 1)
	})
}

func TestMaxRetriesBoundsAnyPolicy(t *testing.T) {
	for _, tt := range []struct {
		max, calls int
	}{{3, 4}, {0, retry.DefaultMaxRetries + 1}} {
		synctest.Test(t, func(t *testing.T) {
			forever := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
			ex := newExecutor(t, retry.Config{Policy: forever, MaxRetries: tt.max})
			cl := newCluster()
			errs := make([]error, 20)
			for i := range errs {
				errs[i] = readTimeout(c.One, 1, 0, false)
			}
			_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []target{{name: "a", errs: errs}}, cl.attempt)
			require.ErrorIs(t, err, retry.ErrTooManyRetries)
			assert.Len(t, cl.log(), tt.calls)
			assert.Equal(t, uint64(1), ex.Metrics().Exhausted)
			for i, q := range forever.questions() {
				assert.Equal(t, i, q.n, "retryCount counts the retries made")
			}
		})
	}
}

func TestInvalidVerdictStops(t *testing.T) {
	for _, tt := range []struct {
		name  string
		level c.Level
		v     retry.Verdict
		ok    bool
	}{
		{"level left zero", c.Quorum, retry.Verdict{Decision: retry.RetrySame}, false},
		{"undefined level", c.Quorum, retry.Verdict{Decision: retry.RetryNext, Level: 99}, false},
		{"undefined decision", c.Quorum, retry.Verdict{Decision: 9, Level: c.Quorum}, false},
		{"ANY asked for", c.Any, retry.Verdict{Decision: retry.RetryNext, Level: c.Any}, true},
	} {
		synctest.Test(t, func(t *testing.T) {
			pol := &recorder{answer: func(retry.Statement) retry.Verdict { return tt.v }}
			ex := newExecutor(t, retry.Config{Policy: pol})
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{unavailable(tt.level, 1, 0)}}, {name: "b"}}
			_, err := retry.Execute(t.Context(), ex, stmt(tt.level, retry.Idempotent), plan, cl.attempt)
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, retry.ErrInvalidVerdict)
			assert.Len(t, cl.log(), 1)
		})
	}
}

func TestBudgetRefusesRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Percent 1: each statement deposits one request, which pays for
		// exactly one retry.
		b := newBudget(t, retry.BudgetConfig{Percent: 1})
		ex := newExecutor(t, retry.Config{Budget: b})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b", errs: []error{overloaded}}, {name: "c"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrBudgetExhausted)
		assert.ErrorIs(t, err, retry.ErrOverloaded)
		assert.Equal(t, []string{"a", "b"}, targets(cl.log()))
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.BudgetRefusals)
		assert.Equal(t, uint64(1), m.TotalRetries())
		assert.Zero(t, b.Available(time.Now()))
	})
}

func TestExecuteRejectsBadCalls(t *testing.T) {
	ex := newExecutor(t, retry.Config{})
	cl := newCluster()
	plan := []target{{name: "a"}}
	ok := stmt(c.One, retry.Idempotent)
	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"nil executor", func() error {
			_, err := retry.Execute(t.Context(), nil, ok, plan, cl.attempt)
			return err
		}, retry.ErrInvalidCall},
		{"nil context", func() error {
			//lint:ignore SA1012 a nil context is the bad input under test
			_, err := retry.Execute(nil, ex, ok, plan, cl.attempt)
			return err
		}, retry.ErrInvalidCall},
		{"nil attempt", func() error {
			_, err := retry.Execute[target, string](t.Context(), ex, ok, plan, nil)
			return err
		}, retry.ErrInvalidCall},
		{"empty plan", func() error {
			_, err := retry.Execute(t.Context(), ex, ok, nil, cl.attempt)
			return err
		}, retry.ErrEmptyPlan},
		{"undefined level", func() error {
			_, err := retry.Execute(t.Context(), ex, stmt(42, retry.Idempotent), plan, cl.attempt)
			return err
		}, retry.ErrInvalidStatement},
		{"undefined idempotence", func() error {
			_, err := retry.Execute(t.Context(), ex, stmt(c.One, 7), plan, cl.attempt)
			return err
		}, retry.ErrInvalidStatement},
		{"nil pointer policy", func() error { // failed at its first call, as a *PolicyPanicError
			s := stmt(c.One, retry.Idempotent)
			s.Policy = (*nilPolicy)(nil)
			_, err := retry.Execute(t.Context(), ex, s, plan, cl.attempt)
			return err
		}, retry.ErrInvalidStatement},
	}
	for _, tt := range tests {
		assert.ErrorIs(t, tt.run(), tt.want, tt.name)
	}
	assert.Empty(t, cl.log())
	assert.Zero(t, ex.Metrics().Executions)
}

func TestNewExecutorRejects(t *testing.T) {
	for _, cfg := range []retry.Config{{MaxRetries: -1}, {Speculation: retry.FixedDelay(-time.Millisecond)}} {
		ex, err := retry.NewExecutor(cfg)
		assert.Nil(t, ex)
		assert.ErrorIs(t, err, retry.ErrInvalidConfig)
	}
}

// A fixed speculation delay must be >= 0: the smallest negative one, -1ns,
// is refused like any other (Config.validateSpeculation), not taken as 0.
func TestNewExecutorRejectsAFixedDelayOfMinusOneNanosecond(t *testing.T) {
	ex, err := retry.NewExecutor(retry.Config{Speculation: retry.FixedDelay(-time.Nanosecond)})
	assert.Nil(t, ex)
	var ce *retry.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Config.Speculation", ce.Field)
	assert.ErrorIs(t, err, retry.ErrInvalidConfig)
}

func TestExecuteDoesNotAllocate(t *testing.T) {
	ex := newExecutor(t, retry.Config{})
	ctx := context.Background()
	plan := []int{1, 2, 3}
	attempt := func(_ context.Context, target int, _ c.Level) (int, error) { return target, nil }
	s := stmt(c.Quorum, retry.Idempotent)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := retry.Execute(ctx, ex, s, plan, attempt); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

func TestExecutionErrorWithoutAttempt(t *testing.T) {
	err := &retry.ExecutionError{Reason: context.Canceled}
	assert.Equal(t, "context canceled after 0 attempts", err.Error())
	assert.True(t, errors.Is(err, context.Canceled))
}

func targets(calls []call) []string {
	var names []string
	for _, cl := range calls {
		names = append(names, cl.target)
	}
	return names
}

func levels(calls []call) []c.Level {
	var ls []c.Level
	for _, cl := range calls {
		ls = append(ls, cl.level)
	}
	return ls
}
