package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A 12-node cluster in two datacenters of six; the key's three replicas are
// nodes 1 and 6 in the coordinator's datacenter (east, where node 10 is)
// and node 3 in the other (west).
const (
	node1 = "east-r1-n1"
	node6 = "east-r3-n6"
	node3 = "west-r3-n3"
)

func newTwelveNodes(t *testing.T, threshold string) *env {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "east", Racks: 3, Nodes: 6}, {Name: "west", Racks: 3, Nodes: 6}},
		Replication: consistency.NetworkTopology(map[string]int{"east": 2, "west": 1}),
		Seed:        1,
		Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, node1, node3, node6))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "east", DefaultTable: policy(t, threshold)})
}

// ONE: node 1, the closest, does not answer; the hedge goes to node 6, the
// other replica in the coordinator's datacenter, which answers.
func TestOneHedgesToNextClosestOfTwelveNodes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwelveNodes(t, "4ms")
		require.NoError(t, e.replica(node1).SetFault(replicatest.Unreachable()))

		res, took, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, ms(5), took)
		assert.Equal(t, node6, res.Trace.Hedge.To)
		assert.True(t, res.Trace.Hedge.Won)
		settle()
		assert.Equal(t, int64(0), e.stats(node3).Reads, "the remote replica is not needed")
	})
}

// LOCAL_ONE never leaves the local datacenter, even when both local
// replicas fail to answer: the read times out rather than ask node 3.
func TestLocalOneNeverLeavesTheLocalDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwelveNodes(t, "4ms")
		require.NoError(t, e.replica(node1).SetFault(replicatest.Unreachable()))
		require.NoError(t, e.replica(node6).SetFault(replicatest.Unreachable()))

		res, took, err := e.read(consistency.LocalOne)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, consistency.ReadTimeoutError{Level: consistency.LocalOne, BlockFor: 1, Cause: timeout.Cause}, *timeout)
		assert.Equal(t, 5*1000*ms(1), took, "the default 5 s read timeout")
		assert.Equal(t, node6, res.Trace.Hedge.To)
		settle()
		assert.Equal(t, int64(0), e.stats(node3).Reads)
		assert.Equal(t, int64(1), e.stats(node6).Reads)
	})
}

// EACH_QUORUM never hedges: each datacenter's quorum is waited for.
func TestEachQuorumNeverHedges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
			Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
			Seed:        1,
			Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "4ms")})
		for _, r := range cl.Replicas() {
			require.NoError(t, r.SetBehavior(constant(ms(30))))
		}

		res, took, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.Equal(t, ms(30), took)
		assert.False(t, res.Trace.Hedge.Fired)
		settle()
		assert.Equal(t, int64(4), cl.Stats().Reads, "two per datacenter")
		m := e.c.Metrics().Total
		assert.Zero(t, m.SpeculativeRetries+m.NoCandidate+m.SuppressedBudget+m.SuppressedOverload)
	})
}

// ALL contacts every replica: when the hedge is due there is no one left
// to ask. The trace says so, but the table's NoCandidate does not count
// it: every slow ALL read would, and Cassandra's insufficient-replicas
// count leaves ALL out (AbstractReadExecutor.getReadExecutor). A level
// that could have had a spare replica is counted.
func TestAllHasNoCandidateLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms")})
		e.behave(t, C, constant(ms(20)))

		res, took, err := e.read(consistency.All)
		require.NoError(t, err)
		assert.Equal(t, ms(20), took)
		assert.Equal(t, coordinator.NoCandidate, res.Trace.Hedge.Suppressed)
		assert.Equal(t, ms(4), res.Trace.Hedge.At, "when it was due")
		assert.Zero(t, e.c.Metrics().Total.NoCandidate)
		assert.Equal(t, int64(3), e.totalReads())

		require.NoError(t, e.cluster.SetAlive(A, false))
		res, _, err = e.read(consistency.Quorum) // B, and C still slow
		require.NoError(t, err)
		assert.Equal(t, coordinator.NoCandidate, res.Trace.Hedge.Suppressed)
		assert.Equal(t, int64(1), e.c.Metrics().Total.NoCandidate)
	})
}

// ALWAYS sends the extra request up front, and two of the three requests
// ask for data.
func TestAlwaysSendsUpFront(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS")})
		e.behave(t, A, constant(ms(50)))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took, "B's data and C's digest complete the read")
		require.Len(t, res.Trace.Requests, 3)
		for _, r := range res.Trace.Requests {
			assert.Zero(t, r.Sent, "every request is sent at once")
		}
		assert.True(t, res.Trace.Hedge.Fired)
		assert.Equal(t, C, res.Trace.Hedge.To)
		assert.True(t, res.Trace.Hedge.Won)
		assert.Equal(t, int64(1), e.stats(B).DataReads)
		assert.Equal(t, int64(1), e.stats(C).DigestReads)
	})
}
