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

// A QUORUM read whose replicas answer at once allocates its requests'
// context (a cancel context, its cancel function and the wrapper that
// carries the deadline) and the trace it returns: four objects. Its
// state, its requests, its timer and its answer channel are recycled, and
// its requests run on kept goroutines.
func TestAQuorumReadAllocatesFourObjects(t *testing.T) {
	race.SkipPooledAllocs(t)
	cl := instantCluster(t)
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
	assert.Equal(t, 4.0, testing.AllocsPerRun(500, read))
}

// A read at ALL over nine replicas sends nine requests, and books them in
// the room its recycled state keeps: it allocates what a QUORUM read does.
func TestAReadOfNineReplicasAllocatesFourObjects(t *testing.T) {
	race.SkipPooledAllocs(t)
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 9}},
		Replication: consistency.Simple(9),
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()

	req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All}
	var res coordinator.Result
	read := func() {
		if res, err = c.Read(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	read() // the table's state and the first workers
	require.Len(t, res.Trace.Requests, 9)
	assert.Equal(t, 4.0, testing.AllocsPerRun(500, read))
}
