package retry_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

func speculatingN(t *testing.T, n int, delay time.Duration) *retry.Executor {
	return newExecutor(t, retry.Config{Speculation: retry.FixedDelay(delay), SpeculativeExecutions: n})
}

// As the Java driver's ConstantSpeculativeExecutionPolicy and gocql's
// SimpleSpeculativeExecution: each speculative attempt starts a delay after
// the one before it, on the next target; the first success wins and every
// other attempt is cancelled.
func TestSpeculativeExecutionsEachAfterTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculatingN(t, 3, 50*ms)
		cl := newCluster()
		plan := []target{{name: "a", delay: time.Second}, {name: "b", delay: time.Second},
			{name: "c", delay: time.Second}, {name: "d", delay: 30 * ms}, {name: "e"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "d", res.Value)
		assert.Equal(t, 180*ms, cl.elapsed())
		assert.Equal(t, []call{
			{target: "a", level: c.Quorum, cancelled: true},
			{target: "b", level: c.Quorum, at: 50 * ms, cancelled: true},
			{target: "c", level: c.Quorum, at: 100 * ms, cancelled: true},
			{target: "d", level: c.Quorum, at: 150 * ms},
		}, cl.log())
		require.Equal(t, 1, res.Attempts.Len())
		assert.Equal(t, retry.AttemptRecord{Target: 3, Level: c.Quorum, Speculative: true}, res.Attempts.At(0))
		assert.Equal(t, uint64(3), ex.Metrics().SpeculativeAttempts)
	})
}

// What ends the schedule early: the plan, the budget, the deadline, and a
// statement that is not idempotent.
func TestSpeculativeExecutionsStop(t *testing.T) {
	slow := []target{{name: "a", delay: time.Second}, {name: "b", delay: time.Second},
		{name: "c", delay: time.Second}, {name: "d", delay: time.Second}}
	tests := []struct {
		name     string
		cfg      retry.Config
		idem     retry.Idempotence
		deadline time.Duration // 0: none
		plan     []target
		wantAt   []time.Duration // of the attempts started
		refusals uint64
	}{
		{"by the plan", retry.Config{SpeculativeExecutions: 5}, retry.Idempotent, 0, slow[:3],
			[]time.Duration{0, 50 * ms, 100 * ms}, 0},
		{"by the budget, for good", retry.Config{SpeculativeExecutions: 3}, retry.Idempotent, 0, slow,
			[]time.Duration{0, 50 * ms}, 1},
		{"by the deadline", retry.Config{SpeculativeExecutions: 3}, retry.Idempotent, 150 * ms, slow,
			[]time.Duration{0, 50 * ms, 100 * ms}, 0},
		{"by a deadline the first would pass", retry.Config{SpeculativeExecutions: 3}, retry.Idempotent, 50 * ms,
			slow, []time.Duration{0}, 0},
		{"not idempotent", retry.Config{SpeculativeExecutions: 3}, retry.NotIdempotent, 0, slow,
			[]time.Duration{0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tt.cfg.Speculation = retry.FixedDelay(50 * ms)
				if tt.refusals > 0 {
					// The statement's own request pays for one attempt.
					tt.cfg.Budget = newBudget(t, retry.BudgetConfig{Percent: 1})
				}
				ex := newExecutor(t, tt.cfg)
				cl := newCluster()
				ctx, cancel := context.WithCancel(t.Context())
				if tt.deadline > 0 {
					ctx, cancel = context.WithTimeout(t.Context(), tt.deadline)
				}
				defer cancel()
				_, _ = retry.Execute(ctx, ex, stmt(c.One, tt.idem), tt.plan, cl.attempt)
				var at []time.Duration
				for _, call := range cl.log() {
					at = append(at, call.at)
				}
				assert.Equal(t, tt.wantAt, at)
				m := ex.Metrics()
				assert.Equal(t, uint64(len(tt.wantAt)-1), m.SpeculativeAttempts)
				assert.Equal(t, tt.refusals, m.BudgetRefusals)
			})
		})
	}
}

// Retries and speculative attempts share the plan: after the first attempt
// failed and its retry took b, the speculative attempts take c, then d.
func TestSpeculativeExecutionsAndRetriesShareThePlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculatingN(t, 2, 50*ms)
		cl := newCluster()
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{overloaded}}, {name: "b", delay: time.Second},
			{name: "c", delay: time.Second}, {name: "d", delay: 10 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "d", res.Value)
		assert.Equal(t, []string{"a", "b", "c", "d"}, targets(cl.log()))
		assert.Equal(t, 110*ms, cl.elapsed())
	})
}

// Execute returns only once every attempt has returned, even attempts that
// ignore their cancellation: no attempt outlives the call.
func TestSpeculativeExecutionsLeaveNothingRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculatingN(t, 3, 50*ms)
		start := time.Now()
		var running atomic.Int32
		took := map[string]time.Duration{"a": 300 * ms, "b": 200 * ms, "c": 20 * ms, "d": 0}
		deaf := func(_ context.Context, tg string, _ c.Level) (string, error) {
			running.Add(1)
			defer running.Add(-1)
			time.Sleep(took[tg])
			return tg, nil
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"a", "b", "c", "d"}, deaf)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value, "c answered first, at 120ms")
		assert.Equal(t, 300*ms, time.Since(start), "a, the slowest loser, returned at 300ms")
		assert.Zero(t, running.Load())
		assert.Equal(t, uint64(2), ex.Metrics().SpeculativeAttempts, "d was not due yet at 120ms")
	})
}

func TestNewExecutorRejectsBadSpeculativeExecutions(t *testing.T) {
	for _, cfg := range []retry.Config{
		{Speculation: retry.FixedDelay(ms), SpeculativeExecutions: -1},
		{SpeculativeExecutions: 2},
	} {
		ex, err := retry.NewExecutor(cfg)
		assert.Nil(t, ex)
		var ce *retry.ConfigError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "Config.SpeculativeExecutions", ce.Field)
		assert.ErrorIs(t, err, retry.ErrInvalidConfig)
	}
}
