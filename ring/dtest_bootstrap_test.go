package ring_test

import (
	"sync/atomic"
	"testing"
	"testing/synctest"

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
		var done atomic.Bool
		reading := make(chan struct{})
		stopClient := func() { done.Store(true); <-reading }
		defer stopClient() // also when the test fails first
		go func() {
			defer close(reading)
			for !done.Load() {
				for _, l := range []consistency.Level{consistency.One, consistency.Quorum} {
					if _, err := readEvery(c, l); err != nil {
						t.Errorf("during the join: %v", err)
						return
					}
				}
			}
		}()
		node4 := ring.Node{ID: "127.0.0.4", Datacenter: "dc1", Rack: "rack1", Tokens: []int64{0x1000}}
		after, err := g.loc.Ring().With(node4)
		if err != nil {
			t.Fatal(err)
		}
		owned := 0
		streamed := map[int32]bool{}
		for k := range int32(dtestUsers) { // node4's ranges, streamed before it joins
			owners, err := after.ReplicasFor(ring.Murmur3Token(intKey(k)), repl)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range owners {
				if n.ID == node4.ID {
					streamed[k] = true
					owned++
				}
			}
		}
		if owned == 0 {
			t.Fatal("node4 owns no user")
		}
		g.connectSeeded = streamed
		if err := g.loc.AddNode(node4); err != nil {
			t.Fatal(err)
		}
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
