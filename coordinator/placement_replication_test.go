package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A Locator's invalid replication is a bad placement, as ErrBadPlacement's
// doc says, refused before anything is sent: the zero Replication (a
// Locator that forgot to set it) and a factor of 0.
func TestAnInvalidReplicationIsABadPlacement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		reps := []replica.Replica{e.replica(A), e.replica(B), e.replica(C)}
		for name, repl := range map[string]consistency.Replication{
			"zero":     {},
			"factor 0": consistency.Simple(0),
		} {
			c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(
				func(string, string) ([]replica.Replica, consistency.Replication, error) { return reps, repl, nil })})
			require.NoError(t, err)
			_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			assert.ErrorIs(t, err, coordinator.ErrBadPlacement, name)
			assert.ErrorIs(t, err, consistency.ErrInvalidReplication, name)
			c.Close()
		}
		settle()
		assert.Zero(t, e.totalReads())
	})
}

// A placement that puts more replicas in the local datacenter than its
// factor there, or any in a local datacenter of factor 0, is a bad
// placement: a DC-local level would read replicas that hold none of the
// data (four in dc1 for {dc1: 3, dc2: 1} read a LOCAL_QUORUM write to two
// of them back stale from the other two, and a replica in a local dc2 of
// factor 0 answered LOCAL_ONE with an empty partition, where Cassandra
// fails it as unavailable; found by review).
func TestMoreReplicasInTheLocalDatacenterThanItsFactorIsABadPlacement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		node := func(id, dc string) replica.Replica {
			return replicatest.NewReplica(replica.Endpoint{ID: id, Datacenter: dc, Rack: "r1"})
		}
		for name, c := range map[string]struct {
			localDC string
			reps    []replica.Replica
			repl    consistency.Replication
		}{
			"four in dc1 of 3": {"dc1", []replica.Replica{node("a", "dc1"), node("b", "dc1"), node("c", "dc1"), node("d", "dc1")},
				consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 1})},
			"one in dc2 of 0": {"dc2", []replica.Replica{node("a", "dc1"), node("b", "dc1"), node("c", "dc2")},
				consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 0})},
		} {
			co, err := coordinator.New(coordinator.Config{LocalDatacenter: c.localDC, Locator: coordinator.LocatorFunc(
				func(string, string) ([]replica.Replica, consistency.Replication, error) { return c.reps, c.repl, nil })})
			require.NoError(t, err)
			_, err = co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.LocalOne})
			assert.ErrorIs(t, err, coordinator.ErrBadPlacement, name)
			assert.ErrorContains(t, err, "local datacenter", name)
			co.Close()
		}
	})
}

// Replicas without a datacenter under NetworkTopology, read by a
// coordinator without Config.LocalDatacenter, sit in the local datacenter
// "", whose factor is 0 (no NetworkTopology names it): a bad placement, as
// any replica in a local datacenter of factor 0 is. LOCAL_QUORUM's
// blockFor there is 0/2+1 = 1, so the read asked one replica of the three
// and returned its stale value, where a LOCAL_QUORUM write had reached the
// other two (found by review).
func TestReplicasWithoutADatacenterUnderNetworkTopologyAreABadPlacement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		node := func(id, value string, ts int64) replica.Replica {
			r := replicatest.NewReplica(replica.Endpoint{ID: id, Rack: "r1"})
			require.NoError(t, r.Seed(tbl, row(key, value, ts)))
			return r
		}
		reps := []replica.Replica{node("a", "v1", 10), node("b", "v2", 20), node("c", "v2", 20)}
		repl := consistency.NetworkTopology(map[string]int{"dc1": 3})
		locator := coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return reps, repl, nil })
		co, err := coordinator.New(coordinator.Config{Locator: locator})
		require.NoError(t, err)
		defer co.Close()
		for _, level := range []consistency.Level{consistency.LocalQuorum, consistency.LocalOne, consistency.Quorum} {
			res, err := co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
			require.ErrorIs(t, err, coordinator.ErrBadPlacement, "%v read %v with blockFor %d", level, res.Visible(), res.Trace.BlockFor)
			assert.ErrorContains(t, err, "without a datacenter", level)
		}

		// So is a Placement of them, read so.
		p, err := coordinator.NewPlacement(reps, repl)
		require.NoError(t, err, "a coordinator in dc1 may read it")
		pco, err := coordinator.New(coordinator.Config{Locator: fixedPlacement{locator, p}})
		require.NoError(t, err)
		defer pco.Close()
		res, err := pco.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.LocalQuorum})
		require.ErrorIs(t, err, coordinator.ErrBadPlacement, "read %v with blockFor %d", res.Visible(), res.Trace.BlockFor)
		settle()
	})
}
