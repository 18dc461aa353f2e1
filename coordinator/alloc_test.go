package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica/replicatest"
)

// A QUORUM read whose replicas answer at once allocates its answer
// channel, its requests' context (a cancel context, its cancel function
// and the wrapper that carries the deadline) and the trace it returns:
// five objects. Its state, its requests and its timer are recycled, and its
// requests run on kept goroutines.
func TestAQuorumReadAllocatesFiveObjects(t *testing.T) {
	race.SkipPooledAllocs(t)
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()

	req := coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum}
	read := func() {
		if _, err := c.Read(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	read() // the table's state and the first workers
	assert.LessOrEqual(t, testing.AllocsPerRun(500, read), 5.0)
}
