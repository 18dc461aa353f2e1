package retry_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Ports of failsafe-go's hedge policy tests (test/hedgepolicy_test.go
// TestHedgePolicy). A hedge is a speculative attempt here; failsafe-go's
// WithMaxHedges(n) is SpeculativeExecutions n, and each hedge takes the next
// target of the plan. A target that should wait for its cancellation has a
// delay far past the test's end.

const never = time.Hour

func hedging(t *testing.T, delay retry.SpeculationDelay, hedges int) *retry.Executor {
	return newExecutor(t, retry.Config{Speculation: delay, SpeculativeExecutions: hedges})
}

// "should not hedge when delay not exceeded".
func TestFailsafeNoHedgeBeforeTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := hedging(t, retry.FixedDelay(time.Second), 1)
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{{name: "a"}, {name: "b"}}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Len(t, cl.log(), 1)
		assert.Zero(t, ex.Metrics().SpeculativeAttempts)
	})
}

// "should hedge when delay exceeded" (10 ms, 2 hedges, the first attempt
// answers at 100 ms, the hedges wait for their cancellation): both hedges
// start, the first attempt's result is returned, the hedges are cancelled.
func TestFailsafeHedgesCancelledWhenTheFirstAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := hedging(t, retry.FixedDelay(10*ms), 2)
		cl := newCluster()
		plan := []target{{name: "a", delay: 100 * ms}, {name: "b", delay: never}, {name: "c", delay: never}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, 100*ms, cl.elapsed(), "Execute returns once the cancelled hedges have")
		assert.Equal(t, []call{
			{target: "a", level: c.One},
			{target: "b", level: c.One, at: 10 * ms, cancelled: true},
			{target: "c", level: c.One, at: 20 * ms, cancelled: true},
		}, cl.log())
		assert.Equal(t, uint64(2), ex.Metrics().SpeculativeAttempts)
		require.Equal(t, 1, res.Attempts.Len())
		assert.False(t, res.Attempts.At(0).Speculative)
	})
}

// "all hedges used" (20 ms, 2 hedges, every attempt takes 100 ms): three
// attempts, the first one's result.
func TestFailsafeAllHedgesUsed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := hedging(t, retry.FixedDelay(20*ms), 2)
		cl := newCluster()
		plan := []target{{name: "a", delay: 100 * ms}, {name: "b", delay: 100 * ms}, {name: "c", delay: 100 * ms}, {name: "d"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, []string{"a", "b", "c"}, targets(cl.log()), "no more than SpeculativeExecutions hedges")
		assert.Equal(t, uint64(2), ex.Metrics().SpeculativeAttempts)
	})
}

// "backup executions" (delay 0, 2 hedges): every attempt starts at once.
func TestFailsafeBackupExecutions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := hedging(t, retry.FixedDelay(0), 2)
		cl := newCluster()
		plan := []target{{name: "a", delay: never}, {name: "b", delay: never}, {name: "c", delay: 5 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value)
		assert.Equal(t, 5*ms, cl.elapsed())
		for _, call := range cl.log() {
			assert.Zero(t, call.at, call.target)
		}
		assert.Equal(t, uint64(2), ex.Metrics().SpeculativeAttempts)
	})
}

// noHedge is a delay that declines to speculate with a negative delay, as
// failsafe-go's delay function returning -1.
type noHedge struct{ speculate bool }

func (n noHedge) Load(time.Time) (time.Duration, bool) { return -1, n.speculate }

// "should return result with negative delay when no result is cancellable":
// a negative delay (or speculate false) stops hedging, and the first
// attempt's result is returned.
func TestFailsafeNegativeDelayStopsHedging(t *testing.T) {
	for _, spec := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			ex := hedging(t, noHedge{spec}, 2)
			cl := newCluster()
			res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
				[]target{{name: "a", delay: 50 * ms}, {name: "b"}}, cl.attempt)
			require.NoError(t, err)
			assert.Equal(t, "a", res.Value)
			assert.Len(t, cl.log(), 1)
		})
	}
}

// "should cancel on result", "first returned result triggers cancellation"
// (10 ms, 4 hedges, the third attempt answers, the others wait for their
// cancellation): the third attempt wins at once and the rest are cancelled;
// no fourth hedge starts after the win.
func TestFailsafeAHedgeWinsAndCancelsTheOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := hedging(t, retry.FixedDelay(10*ms), 4)
		cl := newCluster()
		plan := []target{{name: "a", delay: never}, {name: "b", delay: never}, {name: "c"},
			{name: "d", delay: never}, {name: "e", delay: never}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value)
		assert.Equal(t, 20*ms, cl.elapsed())
		assert.Equal(t, []call{
			{target: "a", level: c.One, cancelled: true},
			{target: "b", level: c.One, at: 10 * ms, cancelled: true},
			{target: "c", level: c.One, at: 20 * ms},
		}, cl.log())
		assert.Equal(t, uint64(2), ex.Metrics().SpeculativeAttempts)
		require.Equal(t, 1, res.Attempts.Len())
		assert.Equal(t, retry.AttemptRecord{Target: 2, Level: c.One, Speculative: true}, res.Attempts.At(0))
	})
}

// "third returned result triggers cancellation": failsafe-go lets hedges'
// results that match no cancel condition pass until one does. readpath's
// counterpart is a failed hedge: a failure whose verdict is Rethrow does not
// end the statement while another attempt runs, so the slow first attempt
// still wins.
func TestFailsafeAFailedHedgeDoesNotEndTheStatement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), SpeculativeExecutions: 2,
			Policy: retry.FallthroughPolicy{}})
		cl := newCluster()
		plan := []target{{name: "a", delay: 100 * ms}, failing("b", 1, retry.ErrOverloaded), failing("c", 1, retry.ErrOverloaded)}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, 100*ms, cl.elapsed())
		require.Equal(t, 3, res.Attempts.Len(), "the failed hedges, then the winner")
		assert.ErrorIs(t, res.Attempts.At(0).Err, retry.ErrOverloaded)
		assert.ErrorIs(t, res.Attempts.At(1).Err, retry.ErrOverloaded)
		assert.NoError(t, res.Attempts.At(2).Err)
	})
}

// The same when every attempt fails: the statement ends with the last
// failure, once no attempt is running.
func TestFailsafeEveryHedgeFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), SpeculativeExecutions: 1,
			Policy: retry.FallthroughPolicy{}})
		cl := newCluster()
		first := target{name: "a", delay: 100 * ms, errs: []error{retry.ErrServerError}}
		plan := []target{first, failing("b", 1, retry.ErrOverloaded)}
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		assert.ErrorIs(t, err, retry.ErrRethrown)
		assert.ErrorIs(t, err, retry.ErrServerError, "the last attempt to fail")
		assert.NotErrorIs(t, err, retry.ErrOverloaded)
		assert.Equal(t, 100*ms, cl.elapsed())
	})
}
