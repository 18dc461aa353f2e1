package ring_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// A node the Locator cannot connect to, or whose Connect returns a nil
// replica (or a nil pointer as one), another node's, or a wrapper of a nil
// connection whose Endpoint panics (which crashed the change), is refused
// by AddNode and ReplaceNode with the error their docs name, and changes
// nothing.
func TestLocatorChangeRefusedByConnectChangesNothing(t *testing.T) {
	failing := errors.New("dial failed")
	connect := func(n ring.Node) (replica.Replica, error) {
		switch n.ID {
		case "unreachable":
			return nil, failing
		case "nil":
			return nil, nil
		case "nil pointer": // crashed the change in its Endpoint
			return (*replicatest.Replica)(nil), nil
		case "impostor":
			return replicatest.NewReplica(replica.Endpoint{ID: "someone else"}), nil
		case "wrapped nil":
			return wrapper{nil}, nil
		}
		return replicatest.NewReplica(n.Endpoint()), nil
	}
	nodes := randomNodes(5, 4, 4, 2, 2)
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables, Connect: connect})
	if err != nil {
		t.Fatal(err)
	}
	before := l.Ring()
	var connErr *ring.ConnectError
	var nodeErr *ring.NodeError
	for _, tc := range []struct {
		id, kind string
		want     any
	}{{"unreachable", "*ConnectError", &connErr}, {"nil", "*NodeError", &nodeErr}, {"nil pointer", "*NodeError", &nodeErr},
		{"impostor", "*NodeError", &nodeErr}, {"wrapped nil", "*NodeError", &nodeErr}} {
		n := ring.Node{ID: tc.id, Datacenter: nodes[0].Datacenter, Rack: nodes[0].Rack, Tokens: []int64{42}}
		if err := l.AddNode(n); !errors.As(err, tc.want) {
			t.Errorf("AddNode(%s) = %v, want a %s", tc.id, err, tc.kind)
		}
		n.Tokens = nil
		if err := l.ReplaceNode(nodes[1].ID, n); !errors.As(err, tc.want) {
			t.Errorf("ReplaceNode(%s, %s) = %v, want a %s", nodes[1].ID, tc.id, err, tc.kind)
		}
		if l.Ring() != before {
			t.Fatalf("a refused change to %s replaced the ring", tc.id)
		}
		if _, ok := l.Replica(tc.id); ok {
			t.Errorf("a refused change left a replica for %s", tc.id)
		}
	}
}

// wrapper is a decorator of a connection (for metrics, say), here of a nil
// one: its Endpoint panics.
type wrapper struct{ replica.Replica }

// NewLocator refuses a Connect whose replica's Endpoint panics with a
// *NodeError, as AddNode does, where it crashed.
func TestNewLocatorRefusesAReplicaWhoseEndpointPanics(t *testing.T) {
	_, err := ring.NewLocator(ring.LocatorConfig{Nodes: randomNodes(5, 4, 4, 2, 2), Tables: tables,
		Connect: func(ring.Node) (replica.Replica, error) { return wrapper{nil}, nil }})
	var nodeErr *ring.NodeError
	if !errors.As(err, &nodeErr) {
		t.Errorf("NewLocator = %v, want a *NodeError", err)
	}
}

// NewLocator's error over several invalid tables names the same one every
// time, the first by name: the map's order chose it.
func TestNewLocatorNamesTheFirstInvalidTable(t *testing.T) {
	bad := consistency.Simple(0)
	cfg := ring.LocatorConfig{Nodes: randomNodes(5, 4, 4, 2, 2), Connect: func(n ring.Node) (replica.Replica, error) {
		return replicatest.NewReplica(n.Endpoint()), nil
	}, Tables: map[string]consistency.Replication{"gamma": bad, "alpha": bad, "beta": bad}}
	for range 50 {
		if _, err := ring.NewLocator(cfg); err == nil || !strings.Contains(err.Error(), "alpha") {
			t.Fatalf("NewLocator = %v, want alpha named", err)
		}
	}
}
