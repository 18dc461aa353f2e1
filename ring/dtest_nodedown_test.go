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
)

// TestHintedHandoffConfig._do_hinted_handoff of apache/cassandra-dtest
// hintedhandoff_test.py (CASSANDRA-9035), its read side: two nodes at
// RF 2; node2 stopped, then started, then node1 stopped, and every user
// read at ONE through node2. Hints are not the read path's: node2 is
// seeded as if they were delivered. What the read path must do: a node
// that stopped is avoided once convicted and readmitted as soon as it is
// back, and no read at ONE fails while a node stops, however it stops
// (connections refused, or a node that never answers).
func TestDtestHintedHandoffReadSide(t *testing.T) {
	for name, fault := range map[string]replicatest.Fault{"refused": replicatest.Down(), "silent": replicatest.Unreachable()} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				g := newGossipCluster(t, consistency.Simple(2), 2)
				c := g.coordinator(t, "dc1")
				node1, node2 := g.nodes[0].ID, g.nodes[1].ID
				readAll := func(l consistency.Level) (sent map[string]int, err error) {
					sent = map[string]int{}
					for k := range int32(dtestUsers) {
						res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(k)), Level: l})
						for _, r := range res.Trace.Requests {
							sent[r.Endpoint]++
						}
						if err != nil {
							return sent, err
						}
						if len(res.Partition.Rows) != 1 {
							t.Fatalf("user %d at %s: %d rows", k, l, len(res.Partition.Rows))
						}
					}
					return sent, nil
				}
				stopDuringReads := func(id string) {
					t.Helper()
					if err := g.reps[id].SetFault(fault); err != nil {
						t.Fatal(err)
					}
					g.stopped.Store(id, true)
					for range 3 { // reads while it stops, before any conviction
						if _, err := readAll(consistency.One); err != nil {
							t.Fatalf("reading at ONE as %s stops: %v", id, err)
						}
					}
					// phi passes 8 after 8 ln 10 = 18.4 mean intervals (1 s) of
					// silence, seen at the next check (each second); a refused
					// connection convicts at once.
					if took := g.stop(t, id); took > 20*time.Second {
						t.Fatalf("%s convicted %v after it stopped, want within 20 s", id, took)
					}
				}

				stopDuringReads(node2)
				if sent, err := readAll(consistency.One); err != nil || sent[node2] != 0 {
					t.Fatalf("node2 down: %v, sent %v, want every read on node1", err, sent)
				}
				var unavailable *consistency.UnavailableError
				if _, err := readAll(consistency.All); !errors.As(err, &unavailable) || unavailable.Alive != 1 {
					t.Fatalf("node2 down, ALL: %v, want Unavailable, 1 alive", err)
				}
				// Its next heartbeat, or the probe that follows a refusal
				// (1 s less jitter after the conviction), readmits it.
				if back := g.start(t, node2); back > time.Second {
					t.Fatalf("node2 readmitted %v after it started, want within 1 s", back)
				}
				if sent, err := readAll(consistency.All); err != nil || sent[node2] != dtestUsers {
					t.Fatalf("node2 back, ALL: %v, sent %v", err, sent)
				}

				stopDuringReads(node1)
				if sent, err := readAll(consistency.One); err != nil || sent[node1] != 0 || sent[node2] != dtestUsers {
					t.Fatalf("node1 down: %v, sent %v, want every read on node2 alone", err, sent)
				}
			})
		})
	}
}

// replace_address_test.py's _stop_node_to_replace takes either Unavailable
// or ReadTimeout from a read at THREE once node3 stops: which one depends on
// whether the coordinator knows yet. Here both, in order: three nodes at
// RF 3, node3 stops answering (no refusal, so only phi convicts it); THREE
// times out, with two of three received, until phi convicts it, and is
// Unavailable at once after, with nothing sent.
func TestDtestStoppedNodeTimesOutThenUnavailable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGossipCluster(t, consistency.Simple(3), 3)
		c := g.coordinator(t, "dc1")
		node3 := g.nodes[2].ID
		if err := g.reps[node3].SetFault(replicatest.Unreachable()); err != nil {
			t.Fatal(err)
		}
		g.stopped.Store(node3, true)
		read := func() (coordinator.Result, time.Duration, error) {
			start := time.Now()
			res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(0)), Level: consistency.Three})
			return res, time.Since(start), err
		}
		_, took, err := read()
		var timeout *consistency.ReadTimeoutError
		if !errors.As(err, &timeout) || timeout.BlockFor != 3 || timeout.Received != 2 {
			t.Fatalf("node3 silent, not yet convicted: %v, want a timeout with 2 of 3", err)
		}
		if took != 5*time.Second {
			t.Fatalf("the timeout came after %v, want the read timeout, 5 s", took)
		}
		g.stop(t, node3)
		res, took, err := read()
		var unavailable *consistency.UnavailableError
		if !errors.As(err, &unavailable) || unavailable.Required != 3 || unavailable.Alive != 2 || len(res.Trace.Requests) != 0 || took != 0 {
			t.Fatalf("node3 convicted: %v after %v and %d requests, want Unavailable (3 required, 2 alive) at once", err, took, len(res.Trace.Requests))
		}
	})
}
