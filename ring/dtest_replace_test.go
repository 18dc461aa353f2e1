package ring_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// BaseReplaceAddressTest._test_replace_node of apache/cassandra-dtest
// replace_address_test.py (test_replace_stopped_node and
// test_replace_stopped_node_same_address, CASSANDRA-8523), as the read path
// sees it: three nodes at RF 3; node3 stops, and a read at THREE fails
// (the dtest takes Unavailable or ReadTimeout; convicted, it must be
// Unavailable, with nothing sent); node4 replaces it, at a new address or
// at node3's own, once it holds node3's data (Cassandra's reads wait for
// the replacement's streaming, which the Locator leaves to its caller);
// then every node but the replacement stops, and every user reads at ONE
// from it alone.
func TestDtestReplaceNodeThenRead(t *testing.T) {
	for name, sameAddress := range map[string]bool{"new address": false, "same address": true} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				g := newGossipCluster(t, consistency.Simple(3), 3)
				c := g.coordinator(t, "dc1")
				node3 := g.nodes[2]
				// A read meets node3's refused connections first, so that
				// both sources convict it: a replacement at its address must
				// still be readmitted, through its new connection.
				if err := g.reps[node3.ID].SetFault(replicatest.Down()); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(0)), Level: consistency.All}); err == nil {
					t.Fatal("ALL read node3's refused connection")
				}
				g.stop(t, node3.ID)
				res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(0)), Level: consistency.Three})
				var unavailable *consistency.UnavailableError
				if !errors.As(err, &unavailable) || len(res.Trace.Requests) != 0 {
					t.Fatalf("node3 down, THREE: %v after %d requests, want Unavailable", err, len(res.Trace.Requests))
				}

				node4 := ring.Node{ID: "127.0.0.4", Datacenter: "dc1", Rack: "rack1", Tokens: node3.Tokens}
				if sameAddress {
					node4.ID = node3.ID
				}
				if err := g.loc.ReplaceNode(node3.ID, node4); err != nil {
					t.Fatal(err)
				}
				// What streaming gives it, before any read could reach it
				// (no read runs here meanwhile).
				for k := range int32(dtestUsers) {
					if err := g.reps[node4.ID].Seed("users", userRow(k)); err != nil {
						t.Fatal(err)
					}
				}
				// Its heartbeats begin; the detector, given Locator.Replica,
				// probes the new connection within a CheckInterval.
				if took := g.start(t, node4.ID); took > time.Second {
					t.Fatalf("the replacement was readmitted %v after it started, want within 1 s", took)
				}

				for _, n := range g.nodes[:2] {
					g.stop(t, n.ID)
				}
				sent, err := readEvery(c, consistency.One)
				if err != nil || len(sent) != 1 || sent[node4.ID] != dtestUsers {
					t.Fatalf("only the replacement up, ONE: %v, sent %v, want every read on %s", err, sent, node4.ID)
				}
			})
		})
	}
}
