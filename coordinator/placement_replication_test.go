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
