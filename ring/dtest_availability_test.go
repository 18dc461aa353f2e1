package ring_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// The read levels of TestAvailability's combinations. SERIAL and
// LOCAL_SERIAL are left out: readpath refuses them (no Paxos, see the
// README); ANY cannot read.
var availabilityReads = []consistency.Level{consistency.All, consistency.Quorum, consistency.LocalQuorum,
	consistency.One, consistency.Two, consistency.Three, consistency.LocalOne, consistency.EachQuorum}

// requiredNodes and shouldSucceed are TestHelper._required_nodes and
// _should_succeed of consistency_test.py, the dtest's own expectation.
func requiredNodes(l consistency.Level, rf []int, dc int) int {
	total := 0
	for _, f := range rf {
		total += f
	}
	switch l {
	case consistency.Two:
		return 2
	case consistency.Three:
		return 3
	case consistency.Quorum:
		return total/2 + 1
	case consistency.All:
		return total
	case consistency.LocalQuorum, consistency.EachQuorum:
		return rf[dc]/2 + 1
	}
	return 1
}

func shouldSucceed(l consistency.Level, rf, alive []int, dc int) bool {
	switch l {
	case consistency.LocalQuorum, consistency.LocalOne:
		return alive[dc] >= requiredNodes(l, rf, dc)
	case consistency.EachQuorum:
		for i := range rf {
			if alive[i] < requiredNodes(l, rf, i) {
				return false
			}
		}
		return true
	}
	sum := 0
	for _, a := range alive {
		sum += a
	}
	return sum >= requiredNodes(l, rf, dc)
}

// checkReads is _test_insert_query_from_node's read side: every user
// reads back at l, or every read is Unavailable, with nothing sent.
func (g *gossipCluster) checkReads(t *testing.T, c *coordinator.Coordinator, l consistency.Level, rf, alive []int, dc int) {
	t.Helper()
	succeed := shouldSucceed(l, rf, alive, dc)
	for k := range int32(dtestUsers) {
		res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(k)), Level: l})
		var unavailable *consistency.UnavailableError
		switch {
		case succeed && err != nil:
			t.Fatalf("alive %v, dc%d, %s: user %d: %v, want the row", alive, dc+1, l, k, err)
		case succeed && len(res.Partition.Rows) != 1:
			t.Fatalf("alive %v, dc%d, %s: user %d read %d rows, want 1", alive, dc+1, l, k, len(res.Partition.Rows))
		case !succeed && !errors.As(err, &unavailable):
			t.Fatalf("alive %v, dc%d, %s: user %d: %v, want Unavailable", alive, dc+1, l, k, err)
		case !succeed && len(res.Trace.Requests) != 0:
			t.Fatalf("alive %v, dc%d, %s: an Unavailable read sent %d requests", alive, dc+1, l, len(res.Trace.Requests))
		case !succeed && l != consistency.EachQuorum && unavailable.Required != requiredNodes(l, rf, dc):
			t.Fatalf("alive %v, dc%d, %s: %v, want %d required", alive, dc+1, l, err, requiredNodes(l, rf, dc))
		case !succeed && l == consistency.EachQuorum && !shortOf(unavailable, rf, alive):
			t.Fatalf("alive %v, %s: %v, want a datacenter that is short, with its figures", alive, l, err)
		}
	}
}

// TestAvailability.test_simple_strategy and
// test_simple_strategy_each_quorum (CASSANDRA-10584) of
// apache/cassandra-dtest consistency_test.py: three nodes, RF 3; a client
// connected to node1, then node2, then node3 reads 100 users at every
// level, and the node it used is stopped after, until one is left; the
// nodes stopped are known to be down (wait_other_notice) before the next
// reads.
func TestDtestAvailabilitySimpleStrategy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGossipCluster(t, consistency.Simple(3), 3)
		c := g.coordinator(t, "dc1")
		alive := []int{3}
		for _, n := range g.nodes {
			for _, l := range availabilityReads {
				g.checkReads(t, c, l, []int{3}, alive, 0)
			}
			g.stop(t, n.ID)
			alive[0]--
		}
	})
}

// TestAvailability.test_network_topology_strategy and
// test_network_topology_strategy_each_quorum of consistency_test.py: three
// datacenters of three nodes, {'dc1': 3, 'dc2': 3, 'dc3': 3}; each node in
// turn is the client's coordinator (its datacenter the local one for
// LOCAL_*), then stopped.
func TestDtestAvailabilityNetworkTopologyStrategy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rf := []int{3, 3, 3}
		g := newGossipCluster(t, consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3, "dc3": 3}), 3, 3, 3)
		alive := []int{3, 3, 3}
		for i, n := range g.nodes {
			dc := i / 3
			c := g.coordinator(t, fmt.Sprint("dc", dc+1))
			for _, l := range availabilityReads {
				g.checkReads(t, c, l, rf, alive, dc)
			}
			g.stop(t, n.ID)
			alive[dc]--
		}
	})
}

// shortOf reports whether an EACH_QUORUM Unavailable names a datacenter
// that is short (or none, under one datacenter), with its own figures, as
// Cassandra's per-datacenter UnavailableException does.
func shortOf(e *consistency.UnavailableError, rf, alive []int) bool {
	i := 0
	if len(rf) > 1 {
		if _, err := fmt.Sscanf(e.Datacenter, "dc%d", &i); err != nil || i < 1 || i > len(rf) {
			return false
		}
		i--
	}
	need := requiredNodes(consistency.EachQuorum, rf, i)
	return alive[i] < need && e.Required == need && e.Alive == alive[i]
}
