package coordinator_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
)

// A retry executor speculating across two coordinators that share its
// budget, with contexts cancelled at random and one coordinator closed in
// the middle: every statement ends with a value or an error, never both;
// the budget never goes negative; every attempt returned (goleak); the
// executor counted every statement.
func TestTortureRetryExecutorOverCoordinators(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 1))
		cl := tortureCluster(t, rng)
		budget, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.5, MinPerSecond: 20})
		require.NoError(t, err)
		var cs []*coordinator.Coordinator
		for range 2 {
			c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: ms(40),
				Budget: budget, BudgetWithdrawOnly: true, DefaultTable: policy(t, "ALWAYS")})
			require.NoError(t, err)
			cs = append(cs, c)
		}
		e, err := retry.NewExecutor(retry.Config{Budget: budget, Speculation: retry.FixedDelay(ms(2)),
			SpeculativeExecutions: 2})
		require.NoError(t, err)
		attempt := func(ctx context.Context, c *coordinator.Coordinator, level consistency.Level) (coordinator.Result, error) {
			return c.Read(ctx, coordinator.Request{Table: "t0", Key: tortureKey(0), Level: level})
		}
		var statements, values, failures atomic.Int64
		var wg sync.WaitGroup
		for g := range 8 {
			r := rand.New(rand.NewPCG(9, uint64(g)))
			wg.Go(func() {
				for range 30 {
					ctx, cancel := context.WithCancel(context.Background())
					if r.IntN(3) == 0 {
						time.AfterFunc(ms(float64(r.IntN(10))), cancel)
					}
					plan := []*coordinator.Coordinator{cs[g%2], cs[1-g%2], cs[g%2]}
					res, err := retry.Execute(ctx, e, retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent},
						plan, attempt)
					cancel()
					statements.Add(1)
					if err != nil {
						failures.Add(1)
						assert.True(t, res.Value.Partition.IsEmpty(), "a value and %v", err)
					} else if !res.Ignored {
						values.Add(1)
					}
					assert.GreaterOrEqual(t, budget.Available(time.Now()), 0.0)
					time.Sleep(ms(float64(r.IntN(4))))
				}
			})
		}
		time.Sleep(ms(30))
		require.NoError(t, cs[0].Close())
		wg.Wait()
		require.NoError(t, cs[1].Close())
		time.Sleep(time.Second)
		synctest.Wait()
		m := e.Metrics()
		assert.Equal(t, uint64(statements.Load()), m.Executions)
		assert.Positive(t, values.Load())
		assert.Positive(t, m.SpeculativeAttempts)
		for _, c := range cs {
			for _, rm := range c.Metrics().Replicas {
				assert.Zero(t, rm.Outstanding+rm.Abandoned, "at %s", rm.Endpoint.ID)
			}
		}
		t.Logf("%d statements, %d values, %d failures\n%v", statements.Load(), values.Load(), failures.Load(), m)
	})
}
