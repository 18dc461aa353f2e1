package coordinator_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Ports of Cassandra's
// test/unit/org/apache/cassandra/locator/AssureSufficientLiveNodesTest.java.

// AssureSufficientLiveNodesTest.insufficientLiveNodesTest: a keyspace of
// NetworkTopologyStrategy {datacenter1: 6} over a ring of three nodes in
// datacenter1: a QUORUM needs 4 and only 3 replicas exist.
func TestCassandraInsufficientLiveNodes(t *testing.T) {
	cl := instantCluster(t)
	loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
		reps, _, err := cl.Locate(table, k)
		return reps, consistency.NetworkTopology(map[string]int{"dc1": 6}), err
	})
	c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl, LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()
	for l, required := range map[consistency.Level]int{
		consistency.Quorum: 4, consistency.LocalQuorum: 4, consistency.EachQuorum: 4, consistency.All: 6,
	} {
		_, err = c.Read(t.Context(), coordinator.Request{Table: tbl, Key: key, Level: l})
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u, l.String())
		assert.Equal(t, required, u.Required, l.String())
		assert.Equal(t, 3, u.Alive, l.String())
		assert.Contains(t, err.Error(), "Cannot achieve consistency level "+l.String())
	}
}

// raceCluster is a ring.Locator over three datacenters of three nodes each,
// every node alive and answering at once (AssureSufficientLiveNodesTest's
// setUpClass).
func raceCluster(t *testing.T) *ring.Locator {
	t.Helper()
	var nodes []ring.Node
	for dc := 1; dc <= 3; dc++ {
		for n := range 3 {
			nodes = append(nodes, ring.Node{
				ID: fmt.Sprintf("d%dn%d", dc, n), Datacenter: fmt.Sprintf("dc%d", dc),
				Rack: fmt.Sprintf("r%d", dc), Tokens: []int64{int64(len(nodes)) << 58},
			})
		}
	}
	loc, err := ring.NewLocator(ring.LocatorConfig{
		Nodes:  nodes,
		Tables: map[string]consistency.Replication{tbl: consistency.NetworkTopology(map[string]int{"dc1": 1})},
		Connect: func(n ring.Node) (replica.Replica, error) {
			return replicatest.NewReplica(n.Endpoint()), nil
		},
	})
	require.NoError(t, err)
	return loc
}

// The races of AssureSufficientLiveNodesTest (CASSANDRA-16545): a read
// racing a change of its table's replication must not fail as unavailable
// with every node alive. Cassandra's false UnavailableException came from
// taking the replicas from one replication and blockFor from another; a
// Locate answers both from one snapshot.
func TestCassandraReplicationChangeRacesNoFalseUnavailable(t *testing.T) {
	nts := consistency.NetworkTopology
	for _, tt := range []struct {
		name          string
		init, alterTo consistency.Replication
		level         consistency.Level
	}{
		// addDatacenterShouldNotCausesUnavailableWithEachQuorumTest
		{"addDCEachQuorum", nts(map[string]int{"dc1": 3}), nts(map[string]int{"dc1": 3, "dc2": 3}), consistency.EachQuorum},
		// addDatacenterShouldNotCausesUnavailableWithQuorumTest
		{"addDCQuorum", nts(map[string]int{"dc1": 3}), nts(map[string]int{"dc1": 3, "dc2": 3}), consistency.Quorum},
		{"addDC3Quorum", nts(map[string]int{"dc1": 2, "dc2": 1}), nts(map[string]int{"dc1": 2, "dc2": 1, "dc3": 3}), consistency.Quorum},
		// raceOnRemoveDatacenterNotCausesUnavailable
		{"removeDCEachQuorum", nts(map[string]int{"dc1": 3, "dc2": 3}), nts(map[string]int{"dc1": 3}), consistency.EachQuorum},
		// increaseReplicationFactorShouldNotCausesUnavailableTest
		{"increaseRFLocalQuorum", nts(map[string]int{"dc1": 1}), nts(map[string]int{"dc1": 3}), consistency.LocalQuorum},
	} {
		t.Run(tt.name, func(t *testing.T) {
			loc := raceCluster(t)
			c, err := coordinator.New(coordinator.Config{Locator: loc, LocalDatacenter: "dc1"})
			require.NoError(t, err)
			defer c.Close()
			for range 100 {
				require.NoError(t, loc.SetTable(tbl, tt.init))
				var wg sync.WaitGroup
				start := make(chan struct{})
				wg.Go(func() {
					<-start
					assert.NoError(t, loc.SetTable(tbl, tt.alterTo))
				})
				var readErr error
				wg.Go(func() {
					<-start
					_, readErr = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: tt.level})
				})
				close(start)
				wg.Wait()
				require.NoError(t, readErr)
			}
		})
	}
}
