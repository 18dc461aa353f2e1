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
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A panic of the caller's own code in a key's read stops the other keys'
// reads, as ReadMany's doc says, without a Limit or PageSize too: only a
// paged ReadMany made the context that stops them, so a key whose replicas
// hang held the panic until its read timeout (found by review).
func TestReadManyPanicStopsOtherReadsUnpaged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3), Seed: 1,
		})
		require.NoError(t, err)
		for _, id := range []string{A, B, C} {
			require.NoError(t, cl.Replica(id).SetFault(replicatest.Unreachable()))
		}
		locate := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			if k == "boom" {
				time.Sleep(ms(10)) // the other key's read is out by now
				panic("locator bug")
			}
			return cl.Locate(table, k)
		})
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: cl, ReadTimeout: 5 * time.Second})
		require.NoError(t, err)
		defer c.Close()

		start := time.Now()
		var recovered any
		func() {
			defer func() { recovered = recover() }()
			_, _ = c.ReadMany(context.Background(), coordinator.ManyRequest{
				Table: tbl, Keys: []string{"hangs", "boom"}, Level: consistency.One, Concurrency: 2,
			})
		}()
		took := time.Since(start)
		require.Equal(t, "locator bug", recovered)
		assert.Less(t, took, time.Second,
			"the panic should stop the other key's read, not wait for its read timeout (took %v)", took)
		synctest.Wait()
	})
}
