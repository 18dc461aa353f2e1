package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
)

// With BudgetWithdrawOnly, a statement whose one attempt is a read of the
// coordinator is deposited once, by the executor: at 50 %, four statements
// fund two hedges. Without it, each is deposited twice (as
// retry.Config.Budget documents) and all four hedge.
func TestRetryOverReadsEachStatementIsDepositedOnce(t *testing.T) {
	for _, c := range []struct {
		withdrawOnly bool
		hedges       int64
	}{{true, 2}, {false, 4}} {
		synctest.Test(t, func(t *testing.T) {
			shared, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.5})
			require.NoError(t, err)
			e := newEnv(t, coordinator.Config{Budget: shared, BudgetWithdrawOnly: c.withdrawOnly,
				HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, DefaultTable: policy(t, hedgeAtOnce)})
			ex, err := retry.NewExecutor(retry.Config{Budget: shared})
			require.NoError(t, err)
			for range 4 {
				_, err := retry.Execute(context.Background(), ex, retry.Statement{Level: consistency.Quorum},
					[]*coordinator.Coordinator{e.c}, riRead)
				require.NoError(t, err)
			}
			m := e.c.Metrics().Total
			assert.Equal(t, c.hedges, m.SpeculativeRetries, "withdraw only %v", c.withdrawOnly)
			assert.Equal(t, 4-c.hedges, m.SuppressedBudget, "withdraw only %v", c.withdrawOnly)
		})
	}
}

// Two layers of hedging draw on one allowance: the executor's speculative
// attempt on a second coordinator and both coordinators' own hedges. With
// a floor of three extra attempts per window and no percentage, the first
// statement spends all three (a hedge, a speculative attempt, the
// speculative read's hedge); later statements get none, from either layer.
func TestRetryOverReadsExecutorSpeculationAndHedgesShareOneAllowance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{Percent: 0, MinPerSecond: 0.3})
		require.NoError(t, err)
		cfg := coordinator.Config{Budget: shared, BudgetWithdrawOnly: true,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, DefaultTable: policy(t, hedgeAtOnce)}
		e := newEnv(t, cfg)
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(5)))
		}
		other := newEnvOn(t, e.cluster, cfg).c
		ex, err := retry.NewExecutor(retry.Config{Budget: shared, Speculation: retry.FixedDelay(ms(1)),
			SpeculativeExecutions: 1})
		require.NoError(t, err)
		s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
		for range 3 {
			_, err := retry.Execute(context.Background(), ex, s, []*coordinator.Coordinator{e.c, other}, riRead)
			require.NoError(t, err)
			settle()
		}
		hedges := e.c.Metrics().Total.SpeculativeRetries + other.Metrics().Total.SpeculativeRetries
		m := ex.Metrics()
		assert.Equal(t, int64(2), hedges)
		assert.Equal(t, uint64(1), m.SpeculativeAttempts)
		assert.Equal(t, uint64(2), m.BudgetRefusals, "statements 2 and 3 could not speculate")
		assert.Equal(t, int64(2), e.c.Metrics().Total.SuppressedBudget+other.Metrics().Total.SuppressedBudget,
			"statements 2 and 3 could not hedge")
		assert.Zero(t, shared.Available(time.Now()))
	})
}
