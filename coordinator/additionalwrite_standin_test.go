package coordinator_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// hungApply answers reads as its replica does, but its Apply ignores its
// context and returns only after an hour.
type hungApply struct{ *replicatest.Replica }

func (h hungApply) Apply(ctx context.Context, m replica.Mutation) error {
	time.Sleep(time.Hour)
	return nil
}

// A stale replica whose repair write is refused unsent (it reached its
// backlog cap of abandoned repair writes between its answer and the
// repair) leaves the BLOCKING repair round unable to complete; its
// additional writes then stand in for the refused write, free of the
// budgets, and so are no more than it: one write here, where they went to
// every uncontacted replica (two), while the table's budget allowed no
// speculative action at all.
func TestAdditionalWritesStandingInForARefusedRepairAreAsMany(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A holds an older version, the others the newer.
		cl2, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
			Replication: consistency.Simple(5), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl2.Pin(tbl, key, A, B, C, D, E))
		require.NoError(t, cl2.SeedOn(tbl, row(key, "v1", 10), B, C, D, E))
		require.NoError(t, cl2.SeedOn(tbl, row(key, "v0", 5), A))
		loc := wrapping(cl2, 5, func(r replica.Replica) replica.Replica {
			if r.Endpoint().ID == A {
				return hungApply{r.(*replicatest.Replica)}
			}
			return r
		})
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl2, ReadTimeout: ms(50),
			MaxAbandonedPerReplica: 1, Snitch: coordinator.SnitchConfig{Disabled: true},
			HedgeBudget:  coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}, // no speculative action at all
			DefaultTable: coordinator.TableOptions{AdditionalWritePolicy: policy(t, "5ms").SpeculativeRetry}})
		require.NoError(t, err)
		defer c.Close()

		// B and C stall from 46 ms to 60 ms, so the second read's
		// reconcile reads, sent at 46 ms, answer at 60: its repair goes
		// out after the first read gave up on A's write at 50 ms.
		for _, id := range []string{B, C} {
			require.NoError(t, cl2.Replica(id).AddPause(replicatest.Window{Start: ms(46), End: ms(60)}))
		}
		var wg sync.WaitGroup
		var first coordinator.Result
		wg.Go(func() { // times out on A's hung write
			first, _ = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		})
		time.Sleep(ms(45))
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		wg.Wait()
		require.NoError(t, err)
		m := c.Metrics().Total
		assert.Equal(t, coordinator.SuppressedBudget, first.Trace.AdditionalWrite.Suppressed, "the first read's were held back")
		require.Equal(t, 1, refusedIn(res.Trace), "the second read's repair write to A was refused unsent")
		assert.Equal(t, int64(1), m.AdditionalWrites, "the stand-in for one refused write: one write")
		time.Sleep(2 * time.Hour) // A's hung writes return
		synctest.Wait()
	})
}
