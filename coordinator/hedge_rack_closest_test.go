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

// A hedge that prefers a rack with nothing outstanding goes to the closest
// replica on such a rack. The snitch ranks only blockFor+2 candidates and
// left the rest in the locator's order, which the rack preference walked
// into: at ONE over RF 5, the three fastest replicas on the contact's
// rack, the hedge went to the first replica of the other rack in ring
// order, scored at 100 ms, though its rack-mate scored 2 ms (found by
// review). The rest are now ranked when the walk reaches them.
func TestHedgeOnAnotherRackGoesToTheClosest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const (
			n1 = "dc1-r1-n1"
			n3 = "dc1-r1-n3"
			n5 = "dc1-r1-n5"
			n2 = "dc1-r2-n2" // slow, but answering
			n4 = "dc1-r2-n4" // fast
		)
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 5}},
			Replication: consistency.Simple(5), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, n1, n3, n5, n2, n4))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "5ms"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		e.behave(t, n2, constant(ms(100)))
		e.behave(t, n4, constant(ms(2)))
		_, _, err = e.read(consistency.All) // scores: n1, n3, n5 1 ms; n4 2 ms; n2 100 ms
		require.NoError(t, err)
		settle()
		for _, r := range e.c.Metrics().Replicas {
			require.Zero(t, r.Misses, r.Endpoint.ID)
		}

		e.behave(t, n1, constant(ms(50))) // the closest is slow this once
		res, took, err := e.read(consistency.One)
		require.NoError(t, err)
		require.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, n4, res.Trace.Hedge.To, "the closest replica on a rack with nothing outstanding\n%s", res.Trace)
		assert.Less(t, took, ms(50), "a hedge to the 2 ms replica answers at 7 ms")
		settle()
	})
}
