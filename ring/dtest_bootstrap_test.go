package ring_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// TestBootstrap.test_read_from_bootstrapped_node of apache/cassandra-dtest
// bootstrap_test.py (CASSANDRA-6648): three nodes at RF 2, users written,
// node4 bootstraps, and reads through it see every user. The Locator is
// given node4 once it holds its ranges, as Cassandra reads from a joining
// node only after its streaming; beyond the dtest, a client reads every
// user at ONE and QUORUM throughout the join, and none of those reads may
// fail or miss its row. After it, node4 serves reads of the users it owns.
func TestDtestReadFromBootstrappedNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		repl := consistency.Simple(2)
		g := newGossipCluster(t, repl, 3)
		c := g.coordinator(t, "dc1")
		stopClient := readThroughout(t, c, "during the join")
		defer stopClient() // also when the test fails first
		node4 := ring.Node{ID: "127.0.0.4", Datacenter: "dc1", Rack: "rack1", Tokens: []int64{0x1000}}
		owned := g.join(t, node4, repl)
		g.start(t, node4.ID)
		for range 5 { // a few rounds of the client's reads on the new ring
			if _, err := readEvery(c, consistency.One); err != nil {
				t.Fatal(err)
			}
		}
		stopClient()
		sent, err := readEvery(c, consistency.All)
		if err != nil || sent[node4.ID] != owned {
			t.Fatalf("ALL after the join: %v; node4 was sent %d reads, want one for each of its %d users", err, sent[node4.ID], owned)
		}
	})
}

// TestBootstrap.test_decommissioned_wiped_node_can_join of bootstrap_test.py
// (CASSANDRA-9765): node4 joins three nodes at RF 2, decommissions (its
// ranges streamed, removed, stopped, and forgotten as the README says of a
// node gone), is wiped, and joins again under its ID. The read path must
// take it back at once: no read fails throughout, and after the second join
// a read at ALL of each user it owns asks it once.
func TestDtestDecommissionedWipedNodeRejoins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		repl := consistency.Simple(2)
		g := newGossipCluster(t, repl, 3)
		c := g.coordinator(t, "dc1")
		stopClient := readThroughout(t, c, "while node4 joins, leaves and joins")
		defer stopClient() // also when the test fails first
		node4 := ring.Node{ID: "127.0.0.4", Datacenter: "dc1", Rack: "rack1", Tokens: []int64{0x1000}}
		g.join(t, node4, repl)
		g.start(t, node4.ID)
		// It serves a while: phi can only convict a node it has heard.
		time.Sleep(5 * time.Second)

		g.stream(t, node4.ID, repl)
		if err := g.loc.RemoveNode(node4.ID); err != nil {
			t.Fatal(err)
		}
		g.stop(t, node4.ID)
		g.det.Forget(node4.ID)
		c.ForgetReplica(node4.ID)

		owned := g.join(t, node4, repl) // wiped: a new connection, streamed afresh
		if took := g.start(t, node4.ID); took != 0 {
			t.Fatalf("node4 rejoined but was not alive for %v", took)
		}
		stopClient()
		sent, err := readEvery(c, consistency.All)
		if err != nil || sent[node4.ID] != owned {
			t.Fatalf("ALL after the rejoin: %v; node4 was sent %d reads, want one for each of its %d users", err, sent[node4.ID], owned)
		}
	})
}
