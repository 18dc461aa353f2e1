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
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// hangsReadingKey ignores its context and answers reads of one key only
// after an hour; every other read and write behaves.
type hangsReadingKey struct {
	replica.Replica
	key string
}

func (r hangsReadingKey) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if cmd.Key == r.key {
		time.Sleep(time.Hour)
	}
	return r.Replica.Read(ctx, cmd)
}

// At EACH_QUORUM over dc1:3, dc2:3 a stale dc2 replica (X) answers the read
// but its BLOCKING repair write is refused for its backlog (another read gave
// up on a request to it in between). dc2 then cannot make its quorum of
// holders without a write to its uncontacted replica Z, and the additional
// write that stands in for the refused one goes there. It went to the
// first uncontacted replica in the plan's order, dc1's, which cannot help
// dc2, and the read failed with ReadFailureError although Z was live and
// able to take it (found by review).
func TestEachQuorumStandInWriteGoesToTheShortDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const (
			a, b, c = "dc1-r1-n1", "dc1-r2-n2", "dc1-r3-n3"
			x, y, z = "dc2-r1-n1", "dc2-r2-n2", "dc2-r3-n3"
			slow    = "slow"
		)
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
			Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		for _, k := range []string{key, slow} {
			require.NoError(t, cl.Pin(tbl, k, a, b, c, x, y, z))
		}
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), a, b, c, y, z)) // x is stale

		opts := policy(t, "NEVER")
		opts.ReadRepair = repair.Blocking
		opts.AdditionalWritePolicy = policy(t, "50ms").SpeculativeRetry
		co, err := coordinator.New(coordinator.Config{
			LocalDatacenter: "dc1", Liveness: cl, ReadTimeout: ms(100), MaxAbandonedPerReplica: 1,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, DefaultTable: opts,
			Locator: wrapping(cl, 6, func(r replica.Replica) replica.Replica {
				if r.Endpoint().ID == x {
					return hangsReadingKey{r, slow}
				}
				return r
			}),
		})
		require.NoError(t, err)
		defer co.Close()

		// The read under test: first round at 0 ms (a data; b, x, y digests),
		// reconcile reads at 1 ms, repair writes at 2 ms.
		type out struct {
			res coordinator.Result
			err error
		}
		done := make(chan out, 1)
		go func() {
			res, err := co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.EachQuorum})
			done <- out{res, err}
		}()
		synctest.Wait() // planned and sent before the other read exists

		// Another read asks x for "slow" and gives up at 1.5 ms, leaving x at
		// its cap of abandoned requests just before the repair write to x.
		ctx, cancel := context.WithTimeout(context.Background(), ms(1.5))
		defer cancel()
		_, err = co.Read(ctx, coordinator.Request{Table: tbl, Key: slow, Level: consistency.All})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)

		o := <-done
		tr := o.res.Trace
		require.Equal(t, 1, refusedIn(tr), "the repair write to x is refused for its backlog: %v", tr)
		assert.Contains(t, additionalTargets(tr), z,
			"the stand-in write must go to dc2's uncontacted replica, the only one that can complete dc2's quorum")
		assert.NoError(t, o.err, "z was live: dc2 could reach its quorum of holders")

		time.Sleep(2 * time.Hour) // the hung read returns
		settle()
	})
}
