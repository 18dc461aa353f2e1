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

// Four replicas on two racks, in the locator's order r1, r1, r2, r2.
const (
	r1a = "dc1-r1-n1"
	r1b = "dc1-r1-n3"
	r2a = "dc1-r2-n2"
	r2b = "dc1-r2-n4"
)

func newTwoRacks(t *testing.T, threshold string) *env {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 4}},
		Replication: consistency.Simple(4), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, r1a, r1b, r2a, r2b))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, threshold)})
}

// Replicas of equal standing are contacted across racks: TWO asks one
// replica of each rack, not the first two in the locator's order.
func TestEqualCandidatesAreContactedAcrossRacks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoRacks(t, "NEVER")
		res, _, err := e.read(consistency.Two)
		require.NoError(t, err)
		require.Len(t, res.Trace.Requests, 2)
		assert.Equal(t, []string{"r1", "r2"}, []string{res.Trace.Requests[0].Rack, res.Trace.Requests[1].Rack})
	})
}

// The hedge goes to a replica on another rack than the slow one, though a
// rack-mate of the slow replica comes first in the order.
func TestHedgeGoesToAnotherRack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoRacks(t, "5ms")
		require.NoError(t, e.replica(r1a).SetFault(replicatest.Unreachable()))
		res, took, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, ms(6), took)
		assert.Equal(t, r2a, res.Trace.Hedge.To, "r1b, next in order, shares the slow replica's rack")
	})
}

// The rack spread reaches past the replicas the snitch ranks (the
// contacts and two more): at TWO among five equal replicas, four of them
// first in the locator's order and on one rack, the second contact is the
// fifth, the only one on another rack.
func TestEqualCandidatesPastTheRankedAreContactedAcrossRacks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 8}},
			Replication: consistency.Simple(5), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, "dc1-r1-n1", "dc1-r1-n3", "dc1-r1-n5", "dc1-r1-n7", "dc1-r2-n2"))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		res, _, err := e.read(consistency.Two)
		require.NoError(t, err)
		require.Len(t, res.Trace.Requests, 2)
		assert.Equal(t, []string{"r1", "r2"}, []string{res.Trace.Requests[0].Rack, res.Trace.Requests[1].Rack})
	})
}
