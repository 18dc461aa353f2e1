package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A placement that lists more replicas in a remote datacenter than its
// factor there is a bad placement for a read whose level counts that
// datacenter's replicas (every level but the DC-local ones), as one over
// the local factor is for any read: the extra replica holds none of the
// data, and its answer would count for the one that does. Over {dc1: 3,
// dc2: 1}, a locator listing a, b in dc1 and e, d in dc2, where only d is
// dc2's replica and holds a write acknowledged at LOCAL_ONE there, a
// coordinator in dc1 read that row back at EACH_QUORUM from a, b and e
// without the write. A DC-local read there still reads its own replicas.
func TestMoreReplicasInARemoteDatacenterThanItsFactorIsABadPlacement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		node := func(id, dc, v string, ts int64) replica.Replica {
			r := replicatest.NewReplica(replica.Endpoint{ID: id, Datacenter: dc, Rack: "r1"})
			if v != "" {
				require.NoError(t, r.Seed(tbl, replica.NewPartition(key, replica.NewRow("r", replica.Live("v", v, ts)))))
			}
			return r
		}
		reps := []replica.Replica{node("a", "dc1", "old", 1), node("b", "dc1", "old", 1), node("e", "dc2", "", 0), node("d", "dc2", "new", 2)}
		repl := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 1})
		locate := coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return reps, repl, nil })
		p, err := coordinator.NewPlacement(reps, repl) // a placement serves every datacenter's coordinators
		require.NoError(t, err)
		for name, loc := range map[string]coordinator.Locator{"Locator": locate, "Placement": fixedPlacement{locate, p}} {
			c, err := coordinator.New(coordinator.Config{Locator: loc, LocalDatacenter: "dc1", Snitch: coordinator.SnitchConfig{Disabled: true}})
			require.NoError(t, err)
			t.Cleanup(func() { c.Close() })
			for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.EachQuorum, consistency.All} {
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
				require.ErrorIs(t, err, coordinator.ErrBadPlacement, "%s at %v: read %v", name, level, res.Partition)
				require.ErrorContains(t, err, `2 replicas in the datacenter "dc2" for a factor of 1`, name)
			}
			for _, level := range []consistency.Level{consistency.LocalOne, consistency.LocalQuorum} {
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
				require.NoError(t, err, "%s at %v", name, level)
			}
		}
	})
}
