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

// Under SimpleStrategy over two datacenters Cassandra still filters
// DC-local reads to the local datacenter (ReplicaPlans.candidatesForRead)
// while their blockFor is a quorum of the whole factor
// (ConsistencyLevel.localQuorumFor falls back to quorumFor), and
// EACH_QUORUM is QUORUM without speculation: with key's replicas two in
// dc1 and one in dc2, LOCAL_QUORUM needs both of dc1's and never asks dc2.
func TestSimpleReplicationOverTwoDatacenters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3),
			Seed:        1,
			Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(10)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, d2n1, d1n1, d1n2))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "2ms"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})

		res, _, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.Equal(t, 2, res.Trace.BlockFor)
		assert.Equal(t, coordinator.NoCandidate, res.Trace.Hedge.Suppressed, "dc2's replica is no candidate")
		for _, rt := range res.Trace.Requests {
			assert.Equal(t, "dc1", dcOf(rt.Endpoint))
		}

		res, _, err = e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.Equal(t, 2, res.Trace.BlockFor)
		assert.False(t, res.Trace.Hedge.Fired, "no speculation at EACH_QUORUM")
		assert.Len(t, res.Trace.Requests, 2)

		require.NoError(t, cl.SetAlive(d1n2, false))
		_, _, err = e.read(consistency.LocalQuorum)
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.LocalQuorum, Required: 2, Alive: 1, Datacenter: "dc1"}, *u)
		_, _, err = e.read(consistency.EachQuorum)
		require.NoError(t, err, "EACH_QUORUM is QUORUM: d1n1 and d2n1 make two")
	})
}
