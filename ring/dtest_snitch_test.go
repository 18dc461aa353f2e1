package ring_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// TestDynamicEndpointSnitch.test_multidatacenter_local_quorum of
// apache/cassandra-dtest snitch_test.py (CASSANDRA-13074): ccm's two
// datacenters of three nodes, {'dc1': 3, 'dc2': 3}, speculative_retry
// NONE, node3 answering 50 ms late; 150 LOCAL_QUORUM reads from dc1 must
// never reach dc2 (no score for its nodes) and route around the degraded
// node: the dtest wants at least 125 of the 150 reads "snitchable", each
// then sending the degraded node at most one read, so here at most 25
// reads may ask node3.
func TestDtestDynamicSnitchLocalQuorum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		replicas := map[string]*replicatest.Replica{}
		loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: ccmNodes(3, 3),
			Tables: map[string]consistency.Replication{"tbl1": consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})},
			Connect: func(n ring.Node) (replica.Replica, error) {
				d := time.Millisecond
				if n.ID == "127.0.0.3" {
					d = 50 * time.Millisecond
				}
				r := replicatest.NewReplica(n.Endpoint())
				replicas[n.ID] = r
				return r, r.SetLatency(replicatest.Constant(d))
			}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := coordinator.New(coordinator.Config{Locator: loc, LocalDatacenter: "dc1",
			Tables: map[string]coordinator.TableOptions{"tbl1": {SpeculativeRetry: latency.Never()}}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for x := range int32(150) {
			req := coordinator.Request{Table: "tbl1", Key: string(intKey(x)), Level: consistency.LocalQuorum}
			if _, err := c.Read(context.Background(), req); err != nil {
				t.Fatalf("read %d: %v", x, err)
			}
		}
		for _, id := range []string{"127.0.0.4", "127.0.0.5", "127.0.0.6"} {
			if n := replicas[id].Stats().Reads; n != 0 {
				t.Errorf("%s in dc2 received %d reads, want none", id, n)
			}
		}
		for _, m := range c.Metrics().Replicas {
			if m.Endpoint.Datacenter != "dc1" {
				t.Errorf("the snitch scores %v, of dc2", m.Endpoint)
			}
		}
		if n := replicas["127.0.0.3"].Stats().Reads; n > 25 {
			t.Errorf("the degraded node received %d of 150 reads, want at most 25", n)
		}
	})
}
