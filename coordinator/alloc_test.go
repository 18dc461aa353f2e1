package coordinator_test

import (
	"context"
	"fmt"
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
	assert.Equal(t, 4.0, allocsOfAReadAtAll(t, 9))
}

// A read at ALL over 32 replicas outgrows its state's room for requests:
// its requests, their traces and answers grow once each, and the snitch
// ranks the 32 candidates with their keys and misses on the heap (a group
// of up to 16 keeps them on the stack): nine objects. Its endpoints and
// candidates are in room its recycled state keeps for wide placements.
func TestAReadOf32ReplicasAllocatesNineObjects(t *testing.T) {
	race.SkipPooledAllocs(t)
	assert.Equal(t, 9.0, allocsOfAReadAtAll(t, 32))
}

// A read at ONE or LOCAL_QUORUM over eight datacenters of nine replicas
// each, with addresses for IDs, sends what it sends over one datacenter
// and allocates as much: the 72 endpoints, candidates and duplicate check
// use room its recycled state keeps (it grew them on the heap every read,
// 25 KB at ONE).
func TestAReadOverEightDatacentersAllocatesFourObjects(t *testing.T) {
	race.SkipPooledAllocs(t)
	var dcs []replicatest.Datacenter
	rf := map[string]int{}
	for d := range 8 {
		name := fmt.Sprintf("dc%d", d+1)
		dcs = append(dcs, replicatest.Datacenter{Name: name, Racks: 3, Nodes: 9})
		rf[name] = 9
	}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{Datacenters: dcs, Replication: consistency.NetworkTopology(rf)})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()

	for _, level := range []consistency.Level{consistency.One, consistency.LocalQuorum} {
		req := coordinator.Request{Table: tbl, Key: key, Level: level}
		read := func() {
			if _, err := c.Read(context.Background(), req); err != nil {
				t.Fatal(err)
			}
		}
		read()
		assert.Equal(t, 4.0, testing.AllocsPerRun(500, read), "%v", level)
	}
}

// allocsOfAReadAtAll is what a read at ALL over rf replicas allocates
// once the table's state and the first workers exist.
func allocsOfAReadAtAll(t *testing.T, rf int) float64 {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: rf}},
		Replication: consistency.Simple(rf),
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()

	allocs, res := readAllocs(t, c, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
	require.Len(t, res.Trace.Requests, rf)
	return allocs
}

// readAllocs is what req allocates, read by c once the table's state and
// the first workers exist, and the result of the last read.
func readAllocs(t *testing.T, c *coordinator.Coordinator, req coordinator.Request) (float64, coordinator.Result) {
	t.Helper()
	var res coordinator.Result
	read := func() {
		var err error
		if res, err = c.Read(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	read()
	return testing.AllocsPerRun(500, read), res
}
