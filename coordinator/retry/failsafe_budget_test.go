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

// Ports of failsafe-go's budget tests (test/budget_test.go TestBudget).
// failsafe-go's budget caps the retries and hedges in flight at a share of
// the executions in flight, and releases a permit when its attempt ends;
// readpath's, as Finagle's, caps them at a share of the requests over a
// sliding window, and a granted attempt stays spent. So the ported states are
// set up as deposits and withdrawals made by other statements: at Percent 0.5,
// a statement's retry or hedge is granted while withdrawals, its own
// included, stay within half the deposits, its own included.

// budgetAfter returns a Budget of Percent 0.5 and no floor into which other
// statements deposited deposits requests and withdrew withdrawals attempts.
func budgetAfter(t *testing.T, deposits, withdrawals int) *retry.Budget {
	b := newBudget(t, retry.BudgetConfig{Percent: 0.5})
	now := time.Now()
	for range deposits {
		b.Deposit(now)
	}
	for range withdrawals {
		require.True(t, b.TryWithdraw(now))
	}
	return b
}

// "when retries not exceeded": the retry is granted and succeeds.
func TestFailsafeBudgetGrantsARetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := budgetAfter(t, 1, 0)
		ex := newExecutor(t, retry.Config{Policy: retrySame(), Budget: b})
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 1, retry.ErrServerError)}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, 2, res.Attempts.Len())
		assert.Zero(t, ex.Metrics().BudgetRefusals)
		assert.Zero(t, b.Available(time.Now()), "2 deposits at 0.5 allow 1 withdrawal, spent")
	})
}

// "when retries exceeded": the retry is refused, the statement fails with
// the budget's error and the attempt's, after one attempt.
func TestFailsafeBudgetRefusesARetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := budgetAfter(t, 2, 1)
		ex := newExecutor(t, retry.Config{Policy: retrySame(), Budget: b})
		cl := newCluster()
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 1, retry.ErrServerError)}, cl.attempt)
		assert.ErrorIs(t, err, retry.ErrBudgetExhausted)
		assert.ErrorIs(t, err, retry.ErrServerError)
		assert.Len(t, cl.log(), 1)
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.BudgetRefusals)
		assert.Zero(t, m.TotalRetries())
	})
}

// "when hedges not exceeded": the hedge starts; the slow first attempt wins
// and the hedge is cancelled.
func TestFailsafeBudgetGrantsAHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := budgetAfter(t, 1, 0)
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), Budget: b})
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{{name: "a", delay: 100 * ms}, {name: "b", delay: never}}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, []call{{target: "a", level: c.One}, {target: "b", level: c.One, at: 10 * ms, cancelled: true}}, cl.log())
		assert.Equal(t, uint64(1), ex.Metrics().SpeculativeAttempts)
	})
}

// "when hedges exceeded": the hedge is refused and counted, and the first
// attempt, which the budget does not gate, still answers.
func TestFailsafeBudgetRefusesAHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := budgetAfter(t, 2, 1)
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), Budget: b})
		cl := newCluster()
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{{name: "a", delay: 100 * ms}, {name: "b"}}, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Len(t, cl.log(), 1)
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.BudgetRefusals)
		assert.Zero(t, m.SpeculativeAttempts)
	})
}

// "should acquire and release permit": failsafe-go releases a permit when
// its attempt ends; readpath refunds one only for an attempt that never
// started (its backoff cut short by the context). A retry that ran stays
// spent until it leaves the window.
func TestFailsafeBudgetKeepsARetrySpent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBudget(t, retry.BudgetConfig{Percent: 0.5, Window: time.Second})
		b.Deposit(time.Now())
		ex := newExecutor(t, retry.Config{Policy: retrySame(), Budget: b, MaxRetries: 1})
		cl := newCluster()
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent),
			[]target{failing("a", 1, retry.ErrServerError)}, cl.attempt)
		require.NoError(t, err)
		assert.Zero(t, b.Available(time.Now()))
		time.Sleep(time.Second + 100*ms)
		assert.Zero(t, b.Available(time.Now()), "the deposits leave the window with the withdrawal")
		b.Deposit(time.Now())
		b.Deposit(time.Now())
		assert.Equal(t, 1.0, b.Available(time.Now()))
	})
}
