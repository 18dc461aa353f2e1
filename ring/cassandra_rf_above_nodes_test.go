package ring_test

import (
	"context"
	"errors"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// downSet is a coordinator.Liveness with the given nodes down.
type downSet map[string]bool

func (d downSet) IsAlive(ep replica.Endpoint) bool { return !d[ep.ID] }

// A replication factor above the node count, read through a Locator: the
// datacenter gives all three of its nodes (NetworkTopologyStrategy's
// rfLeft = min(rf, nodeCount), SimpleStrategy's walk running out of
// nodes), while the levels count the configured factor, as Cassandra's
// ConsistencyLevel.blockFor takes it from the strategy
// (getReplicationFactor) and ReplicaPlans.assureSufficientLiveReplicas
// compares it with the live replicas: over RF 5, QUORUM and LOCAL_QUORUM
// need 3, all three nodes; ALL needs 5 and is unavailable; with one node
// down QUORUM is unavailable too, 3 required and 2 alive.
func TestCassandraRFAboveNodeCountThroughTheCoordinator(t *testing.T) {
	for _, repl := range []consistency.Replication{consistency.Simple(5), consistency.NetworkTopology(map[string]int{"dc1": 5})} {
		for _, tc := range []struct {
			level           consistency.Level
			down            downSet
			required, alive int // 0: the read succeeds
		}{
			{consistency.One, nil, 0, 0},
			{consistency.Quorum, nil, 0, 0},
			{consistency.LocalQuorum, nil, 0, 0},
			{consistency.All, nil, 5, 3},
			{consistency.Quorum, downSet{"127.0.0.2": true}, 3, 2},
			{consistency.LocalQuorum, downSet{"127.0.0.2": true}, 3, 2},
			{consistency.Two, downSet{"127.0.0.2": true}, 0, 0},
		} {
			loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: ccmNodes(3),
				Tables: map[string]consistency.Replication{"t": repl}, Connect: new(connector).connect})
			if err != nil {
				t.Fatal(err)
			}
			cfg := coordinator.Config{Locator: loc, LocalDatacenter: "dc1"}
			if tc.down != nil {
				cfg.Liveness = tc.down
			}
			c, err := coordinator.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: tc.level})
			var u *consistency.UnavailableError
			switch {
			case tc.required == 0 && err != nil:
				t.Errorf("%v at %v, down %v: %v", repl, tc.level, tc.down, err)
			case tc.required != 0 && (!errors.As(err, &u) || u.Required != tc.required || u.Alive != tc.alive):
				t.Errorf("%v at %v, down %v: %v, want unavailable, %d required, %d alive", repl, tc.level, tc.down, err, tc.required, tc.alive)
			}
			c.Close()
		}
	}
}
