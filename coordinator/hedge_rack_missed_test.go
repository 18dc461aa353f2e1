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

// Three replicas on two racks: the first two share rack r1, the third is
// alone on r2.
const (
	rackR1a = "dc1-r1-n1"
	rackR1b = "dc1-r1-n3"
	rackR2  = "dc1-r2-n2"
)

// A replica that missed since its last answer "ranks behind every replica
// that has not missed" (README), so that a failing replica is not "asked by
// every read and rescued each time by a hedge". The hedge is documented as
// going to the closest replica not yet asked (DESIGN 2.3 step 4;
// Cassandra's firstUncontactedCandidate). But speculationTarget's rack
// preference skips the healthy replica on the slow contact's rack and
// hedges to the failing one on the other rack: the hedge fails at once and
// the read waits for the slow contact.
func TestHedgePrefersAHealthyReplicaToOneOnAnotherRackThatMissed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 3}},
			Replication: consistency.Simple(3), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, rackR1a, rackR1b, rackR2))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "10ms")})

		_, _, err = e.read(consistency.All) // every replica scored at 1 ms
		require.NoError(t, err)
		settle()
		e.behave(t, rackR2, replicatest.Behavior{Fault: replicatest.Down()})
		_, _, err = e.read(consistency.All) // rackR2 fails: a miss
		require.Error(t, err)
		settle()

		e.behave(t, rackR1a, constant(ms(50)))
		res, took, err := e.read(consistency.One)
		require.NoError(t, err)
		require.Equal(t, rackR1a, firstContact(t, res))
		require.True(t, res.Trace.Hedge.Fired)
		assert.Equal(t, rackR1b, res.Trace.Hedge.To,
			"the hedge goes to the closest healthy replica, not to the one that just failed")
		assert.Less(t, took, ms(50), "the hedge should have rescued the read from the 50 ms contact")
	})
}
