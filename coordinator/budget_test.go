package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
)

// readTable reads key of table n times in a row at QUORUM.
func readTable(t *testing.T, c *coordinator.Coordinator, table string, n int) {
	t.Helper()
	for range n {
		_, err := c.Read(context.Background(), coordinator.Request{Table: table, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
	}
}

// tableMetrics returns one table's metrics.
func tableMetrics(t *testing.T, c *coordinator.Coordinator, table string) coordinator.TableMetrics {
	t.Helper()
	for _, tm := range c.Metrics().Tables {
		if tm.Table == table {
			return tm
		}
	}
	t.Fatalf("no metrics for table %q", table)
	return coordinator.TableMetrics{}
}

// A "0ms" threshold makes every read due to hedge as soon as it starts.
const hedgeAtOnce = "0ms"

// Each table has its own budget: a busy table's reads do not fund a quiet
// table's hedges. The quiet table's ten reads allow it one hedge (10 %,
// no floor), however many reads the busy table made.
func TestABusyTableDoesNotFundAQuietTablesHedges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Percent: 0.1, MinPerSecond: -1},
			Tables: map[string]coordinator.TableOptions{"quiet": policy(t, hedgeAtOnce)}})
		require.NoError(t, e.cluster.Seed("quiet", row(key, "v1", 10)))
		readTable(t, e.c, tbl, 100)
		readTable(t, e.c, "quiet", 10)

		m := tableMetrics(t, e.c, "quiet")
		assert.Equal(t, int64(1), m.SpeculativeRetries)
		assert.Equal(t, int64(9), m.SuppressedBudget)
	})
}

// One table's hedge storm spends its own budget, not its neighbour's: the
// calm table, which deposited 20 reads before the storm, still gets its 10 %
// when it needs to hedge afterwards.
func TestOneTablesHedgeStormDoesNotStarveAnother(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Percent: 0.1, MinPerSecond: -1},
			Tables: map[string]coordinator.TableOptions{"stormy": policy(t, hedgeAtOnce)}})
		require.NoError(t, e.cluster.Seed("stormy", row(key, "v1", 10)))
		readTable(t, e.c, tbl, 20)
		readTable(t, e.c, "stormy", 100)
		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, hedgeAtOnce)))
		readTable(t, e.c, tbl, 10)

		assert.Equal(t, int64(10), tableMetrics(t, e.c, "stormy").SpeculativeRetries)
		assert.Equal(t, int64(3), tableMetrics(t, e.c, tbl).SpeculativeRetries, "10 % of its 30 reads")
	})
}

// A negative Percent allows only the floor; a negative MinPerSecond
// removes the floor.
func TestHedgeBudgetNegativeFieldsMeanNone(t *testing.T) {
	for _, c := range []struct {
		name   string
		budget coordinator.HedgeBudget
		want   int64
	}{
		{"floor only", coordinator.HedgeBudget{Percent: -1, MinPerSecond: 0.5}, 5}, // 0.5/s over 10 s
		{"percent only", coordinator.HedgeBudget{Percent: 0.2, MinPerSecond: -1}, 4},
		{"none", coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}, 0},
		{"defaults", coordinator.HedgeBudget{}, 12}, // 10 % of 20, plus 1/s over 10 s
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{HedgeBudget: c.budget, DefaultTable: policy(t, hedgeAtOnce)})
				readTable(t, e.c, tbl, 20)
				assert.Equal(t, c.want, e.c.Metrics().Total.SpeculativeRetries)
			})
		})
	}
}

// A retry.Budget shared by a retry executor and the coordinator caps their
// extra attempts together: a floor of 10 per window, of which the client's
// retries take 4 and the coordinator's hedges the other 6.
func TestASharedBudgetCapsRetriesAndHedgesTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{Percent: 0, MinPerSecond: 1})
		require.NoError(t, err)
		e := newEnv(t, coordinator.Config{Budget: shared, HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
			DefaultTable: policy(t, hedgeAtOnce)})
		ex, err := retry.NewExecutor(retry.Config{Budget: shared})
		require.NoError(t, err)

		unavailableOnce := func(_ context.Context, node string, l consistency.Level) (int, error) {
			if node == "node1" {
				return 0, &consistency.UnavailableError{Level: l, Required: 2, Alive: 1}
			}
			return 1, nil
		}
		s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
		for range 4 {
			_, err := retry.Execute(context.Background(), ex, s, []string{"node1", "node2"}, unavailableOnce)
			require.NoError(t, err)
		}
		readTable(t, e.c, tbl, 10)

		m := e.c.Metrics().Total
		assert.Equal(t, int64(6), m.SpeculativeRetries)
		assert.Equal(t, int64(4), m.SuppressedBudget)
		_, err = retry.Execute(context.Background(), ex, s, []string{"node1", "node2"}, unavailableOnce)
		assert.ErrorIs(t, err, retry.ErrBudgetExhausted, "the hedges spent the rest")
	})
}

// A hedge the shared budget refuses gives back what the table's budget
// granted it: the table's floor of one hedge a window is still there for
// the next read, which the shared budget (half an attempt a read) then
// allows.
func TestASharedBudgetsRefusalRefundsTheTablesBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.5})
		require.NoError(t, err)
		e := newEnv(t, coordinator.Config{Budget: shared, HedgeBudget: coordinator.HedgeBudget{Percent: -1, MinPerSecond: 0.1},
			DefaultTable: policy(t, hedgeAtOnce)})
		readTable(t, e.c, tbl, 2)

		m := tableMetrics(t, e.c, tbl)
		assert.Equal(t, int64(1), m.SuppressedBudget, "the shared budget refused the first read's hedge")
		assert.Equal(t, int64(1), m.SpeculativeRetries, "the table's floor allowed the second")
	})
}

// With BudgetWithdrawOnly the coordinator's reads do not deposit into the
// shared budget: only its floor, and the executor's statements, fund it.
func TestAWithdrawOnlyBudgetIsNotFundedByReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.5, MinPerSecond: 0.2})
		require.NoError(t, err)
		e := newEnv(t, coordinator.Config{Budget: shared, BudgetWithdrawOnly: true,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, DefaultTable: policy(t, hedgeAtOnce)})
		readTable(t, e.c, tbl, 20)
		assert.Equal(t, int64(2), e.c.Metrics().Total.SpeculativeRetries, "the floor: 0.2/s over 10 s")
	})
}

// One table's metrics can be read without building every table's.
func TestTableMetricsReadsOneTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		readTable(t, e.c, tbl, 3)
		tm, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.Equal(t, int64(3), tm.Reads)
		assert.Equal(t, tableMetrics(t, e.c, tbl), tm)
		_, ok = e.c.TableMetrics("never-read")
		assert.False(t, ok)
	})
}
