package retry_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// The first attempt failing before the delay, rethrown (a read failure),
// ends the statement then: no speculative attempt starts (Java's
// CqlRequestHandler: setFinalError cancels the scheduled execution).
func TestFirstAttemptRethrownBeforeTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(50 * ms), SpeculativeExecutions: 2})
		cl := newCluster()
		rf := &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Received: 1, Failures: 1}
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{rf}}, {name: "b"}, {name: "c"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrRethrown)
		assert.ErrorIs(t, err, rf)
		assert.Equal(t, 10*ms, cl.elapsed())
		assert.Equal(t, []string{"a"}, targets(cl.log()))
		assert.Zero(t, ex.Metrics().SpeculativeAttempts)
	})
}

// The first attempt failing before the delay and retried on the next
// target: the speculative attempt still falls due at the delay after the
// first attempt started, on the target after the retry's, and wins; the
// retry is cancelled (Java: should_retry_in_speculative_executions, where
// the speculative execution is scheduled from the first send).
func TestFirstAttemptRetriedBeforeTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(50 * ms)})
		cl := newCluster()
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{unavailable(c.Quorum, 2, 1)}},
			{name: "b", delay: 200 * ms}, {name: "c", delay: 10 * ms}, {name: "d"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value)
		assert.Equal(t, 60*ms, cl.elapsed())
		assert.Equal(t, []call{{target: "a", level: c.Quorum}, {target: "b", level: c.Quorum, at: 10 * ms, cancelled: true},
			{target: "c", level: c.Quorum, at: 50 * ms}}, cl.log())
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.SpeculativeAttempts)
		assert.Equal(t, uint64(1), m.Retries[retry.CauseUnavailable])
		assert.Zero(t, m.RetrySuccesses, "the winner was the speculative attempt")
		require.Equal(t, 2, res.Attempts.Len(), "the cancelled retry is not recorded")
		assert.True(t, res.Attempts.At(1).Speculative)
	})
}

// SpeculativeExecutions left 0 means its default, one speculative attempt,
// however long the plan and the first attempt.
func TestSpeculativeExecutionsZeroIsOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), SpeculativeExecutions: 0})
		cl := newCluster()
		plan := []target{{name: "a", delay: 100 * ms}, {name: "b", delay: 100 * ms}, {name: "c"}, {name: "d"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, []string{"a", "b"}, targets(cl.log()))
		assert.Equal(t, uint64(retry.DefaultSpeculativeExecutions), ex.Metrics().SpeculativeAttempts)
	})
}

// A plan of one target cannot speculate: the statement runs as a sequential
// one, whatever SpeculativeExecutions says.
func TestNoSpeculationWithASingleTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(ms), SpeculativeExecutions: 5})
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []target{{name: "a", delay: 50 * ms}}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Len(t, cl.log(), 1)
		assert.Zero(t, ex.Metrics().SpeculativeAttempts)
	})
}
