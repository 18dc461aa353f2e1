package ring_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// TestTopology.test_decommission of apache/cassandra-dtest
// topology_test.py: four balanced nodes at RF 2; node4 decommissions
// (streams its ranges, leaves the ring, stops) and every key then reads at
// QUORUM. Beyond the dtest, a client reads every key at ONE and QUORUM
// throughout, and none of those reads may fail or miss the row.
func TestDtestDecommissionThenRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		repl := consistency.Simple(2)
		g := newGossipCluster(t, repl, 4)
		c := g.coordinator(t, "dc1")
		node4 := g.nodes[3].ID
		stopClient := readThroughout(t, c, "during the decommission")
		defer stopClient() // also when the test fails first
		g.stream(t, node4, repl)
		if err := g.loc.RemoveNode(node4); err != nil {
			t.Fatal(err)
		}
		g.stop(t, node4)
		stopClient()
		g.det.Forget(node4)
		c.ForgetReplica(node4)
		if sent, err := readEvery(c, consistency.Quorum); err != nil || sent[node4] != 0 {
			t.Fatalf("after: %v; the node that left was sent %d reads", err, sent[node4])
		}
	})
}

// TestTopology.test_simple_removenode of topology_test.py: three nodes at
// RF 2; node3 stops (and is convicted) and is removed; cassandra-stress
// then reads every key (at LOCAL_ONE, its default). Here at QUORUM too:
// before the removal a key node3 holds is Unavailable at QUORUM, after it
// every key reads, and none from node3.
func TestDtestRemoveNodeThenRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		repl := consistency.Simple(2)
		g := newGossipCluster(t, repl, 3)
		c := g.coordinator(t, "dc1")
		node3 := g.nodes[2].ID
		g.stop(t, node3)
		if _, err := readEvery(c, consistency.LocalOne); err != nil {
			t.Fatalf("node3 down: %v", err)
		}
		onNode3 := 0
		for k := range int32(dtestUsers) {
			reps, _, _ := g.loc.Locate("users", string(intKey(k)))
			if !slices.ContainsFunc(reps, func(r replica.Replica) bool { return r.Endpoint().ID == node3 }) {
				continue
			}
			onNode3++
			_, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(k)), Level: consistency.Quorum})
			var unavailable *consistency.UnavailableError
			if !errors.As(err, &unavailable) {
				t.Fatalf("user %d, on node3, at QUORUM with node3 down: %v, want Unavailable", k, err)
			}
		}
		if onNode3 == 0 {
			t.Fatal("no user on node3")
		}
		g.stream(t, node3, repl)
		if err := g.loc.RemoveNode(node3); err != nil {
			t.Fatal(err)
		}
		g.det.Forget(node3)
		c.ForgetReplica(node3)
		for _, l := range []consistency.Level{consistency.LocalOne, consistency.Quorum, consistency.All} {
			if sent, err := readEvery(c, l); err != nil || sent[node3] != 0 {
				t.Fatalf("after the removal: %v; node3 was sent %d reads at %s", err, sent[node3], l)
			}
		}
	})
}
