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
	"github.com/readpath/readpath/latency"
)

var _ retry.SpeculationDelay = (*latency.Threshold)(nil)

const ms = time.Millisecond

func speculating(t *testing.T, delay retry.SpeculationDelay) *retry.Executor {
	return newExecutor(t, retry.Config{Speculation: delay})
}

func TestSpeculationFirstSuccessWins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		plan := []target{{name: "a", delay: 200 * ms}, {name: "b", delay: 20 * ms}, {name: "c"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "b", res.Value)
		assert.Equal(t, 70*ms, cl.elapsed())
		assert.Equal(t, []call{
			{target: "a", level: c.Quorum, cancelled: true},
			{target: "b", level: c.Quorum, at: 50 * ms},
		}, cl.log())
		require.Equal(t, 1, res.Attempts.Len(), "the cancelled loser is not in the history")
		assert.Equal(t, retry.AttemptRecord{Target: 1, Level: c.Quorum, Speculative: true}, res.Attempts.At(0))
		assert.Equal(t, uint64(1), ex.Metrics().SpeculativeAttempts)
	})
}

func TestNoSpeculationForNonIdempotentStatements(t *testing.T) {
	for _, idem := range []retry.Idempotence{retry.NotIdempotent, retry.IdempotenceUnset} {
		synctest.Test(t, func(t *testing.T) {
			ex := speculating(t, retry.FixedDelay(50*ms))
			cl := newCluster()
			plan := []target{{name: "a", delay: 200 * ms}, {name: "b", delay: 20 * ms}}
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, idem), plan, cl.attempt)
			require.NoError(t, err)
			assert.Equal(t, "a", res.Value)
			assert.Equal(t, 200*ms, cl.elapsed())
			assert.Equal(t, []string{"a"}, targets(cl.log()))
			assert.Zero(t, ex.Metrics().SpeculativeAttempts)
		})
	}
}

func TestNoSpeculationWhenTheFirstAttemptIsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		plan := []target{{name: "a", delay: 10 * ms}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, 10*ms, cl.elapsed())
		assert.Len(t, cl.log(), 1)
	})
}

func TestSpeculationDrawsOnTheBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBudget(t, retry.BudgetConfig{Percent: 0})
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(50 * ms), Budget: b})
		cl := newCluster()
		plan := []target{{name: "a", delay: 200 * ms}, {name: "b", delay: 20 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Len(t, cl.log(), 1)
		m := ex.Metrics()
		assert.Zero(t, m.SpeculativeAttempts)
		assert.Equal(t, uint64(1), m.BudgetRefusals)
	})
}

func TestNoSpeculationPastTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		ctx, cancel := context.WithTimeout(t.Context(), 50*ms)
		defer cancel()
		plan := []target{{name: "a", delay: 200 * ms}, {name: "b"}}
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 50*ms, cl.elapsed())
		assert.Equal(t, []string{"a"}, targets(cl.log()))
	})
}

// Retries and the speculative attempt share the plan: each takes the next
// unused target.
func TestSpeculationAndRetriesShareThePlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{overloaded}}, {name: "b", delay: 100 * ms},
			{name: "c", delay: 10 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value)
		assert.Equal(t, 60*ms, cl.elapsed())
		assert.Equal(t, []call{{target: "a", level: c.One}, {target: "b", level: c.One, at: 10 * ms, cancelled: true},
			{target: "c", level: c.One, at: 50 * ms}}, cl.log())
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.TotalRetries())
		assert.Equal(t, uint64(1), m.SpeculativeAttempts)
	})
}

// A failure of one attempt does not end the statement while another may
// still succeed.
func TestSpeculationOutlivesAFailedAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		plan := []target{{name: "a", delay: 80 * ms, errs: []error{readTimeout(c.One, 1, 1, true)}},
			{name: "b", delay: 50 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "b", res.Value)
		assert.Equal(t, 100*ms, cl.elapsed())
		require.Equal(t, 2, res.Attempts.Len())
		assert.Equal(t, retry.CauseReadTimeout, res.Attempts.At(0).Cause)
		assert.True(t, res.Attempts.At(1).Speculative)
	})
}

func TestSpeculationFailsWhenEveryAttemptFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		plan := []target{{name: "a", delay: 80 * ms, errs: []error{overloaded}},
			{name: "b", delay: 40 * ms, errs: []error{overloaded}}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrPlanExhausted)
		assert.Equal(t, 90*ms, cl.elapsed())
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, 2, ee.Attempts.Len())
		assert.Equal(t, uint64(2), ex.Metrics().Exhausted)
	})
}

func TestSpeculationStopsWhenTheContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(50*ms))
		cl := newCluster()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(60*ms, cancel)
		plan := []target{{name: "a", delay: 200 * ms}, {name: "b", delay: 200 * ms}}
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 60*ms, cl.elapsed())
		for _, call := range cl.log() {
			assert.True(t, call.cancelled, call.target)
		}
	})
}

func TestSpeculationIgnoreEndsTheStatement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(50 * ms), Policy: retry.DowngradingPolicy{}})
		cl := newCluster()
		plan := []target{{name: "a", delay: 60 * ms, errs: []error{writeTimeout(c.One, c.WriteBatch, 1, 1)}},
			{name: "b", delay: 100 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.True(t, res.Ignored)
		assert.Equal(t, 60*ms, cl.elapsed())
		assert.True(t, cl.log()[1].cancelled)
	})
}

func TestSpeculativeAttemptPanicReachesTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(0))
		plan := []string{"a", "b"}
		attempt := func(ctx context.Context, tg string, _ c.Level) (string, error) {
			if tg == "b" {
				panic("replica adapter bug")
			}
			<-ctx.Done()
			return "", ctx.Err()
		}
		p := panicOf(func() {
			_, _ = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, attempt)
		})
		var ap *retry.AttemptPanicError
		require.ErrorAs(t, asErr(p), &ap)
		assert.Equal(t, "replica adapter bug", ap.Value)
	})
}

// The delay can come from a latency.Threshold: fixed, ALWAYS, NEVER, or a
// percentile of the latencies the attempt function records.
func TestSpeculationFollowsALatencyThreshold(t *testing.T) {
	fixed, err := latency.Fixed(30 * ms)
	require.NoError(t, err)
	p50, err := latency.Percentile(50)
	require.NoError(t, err)
	tests := []struct {
		name   string
		policy latency.SpeculativeRetry
		warmup int // reads of 20ms recorded first
		calls  int
	}{
		{"fixed", fixed, 0, 2},
		{"always", latency.Always(), 0, 2},
		{"never", latency.Never(), 0, 1},
		{"percentile, no sample yet", p50, 0, 2},
		{"percentile of recorded reads", p50, 200, 2},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			tracker := latency.NewTracker()
			th := latency.NewThreshold(tt.policy, tracker, time.Second)
			for range tt.warmup {
				tracker.Record(20 * ms)
			}
			time.Sleep(time.Minute / 10) // let the cached threshold go stale
			want, speculate := th.Load(time.Now())
			ex := speculating(t, th)
			cl := newCluster()
			timed := func(ctx context.Context, tg target, l c.Level) (string, error) {
				start := time.Now()
				defer func() { tracker.Record(time.Since(start)) }()
				return cl.attempt(ctx, tg, l)
			}
			plan := []target{{name: "a", delay: 2 * time.Second}, {name: "b", delay: 5 * ms}}
			_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, timed)
			require.NoError(t, err)
			log := cl.log()
			require.Len(t, log, tt.calls)
			if speculate {
				assert.Equal(t, want, log[1].at)
			}
			if tt.warmup > 0 {
				assert.InDelta(t, float64(20*ms), float64(want), float64(ms)/2)
			}
		})
	}
}
