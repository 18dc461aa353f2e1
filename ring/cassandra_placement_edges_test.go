package ring_test

import (
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// Edge cases of apache/cassandra src/java/org/apache/cassandra/locator/
// NetworkTopologyStrategy.java (calculateNaturalReplicas and
// DatacenterEndpoints.addEndpointAndCheckIfDone), SimpleStrategy.java
// (calculateNaturalReplicas) and TokenMetadata.firstTokenIndex, derived by
// hand from those functions: the replicas of a token, in walk order.
func TestCassandraPlacementEdges(t *testing.T) {
	node := func(id, dc, rack string, tok int64) ring.Node {
		return ring.Node{ID: id, Datacenter: dc, Rack: rack, Tokens: []int64{tok}}
	}
	// Rack A holds a1 a2 a3, rack B b1, in that ring order, then dc2's x1.
	skewed := []ring.Node{node("a1", "dc1", "A", 10), node("a2", "dc1", "A", 20), node("a3", "dc1", "A", 30),
		node("b1", "dc1", "B", 40), node("x1", "dc2", "A", 50)}
	nts := func(f map[string]int) consistency.Replication { return consistency.NetworkTopology(f) }
	for _, tc := range []struct {
		name  string
		nodes []ring.Node
		token int64
		repl  consistency.Replication
		want  []string
	}{
		// SimpleStrategy stops when the ring has no node left: rf is min(rf, nodes).
		{"one node, SimpleStrategy 3", skewed[:1], 0, consistency.Simple(3), []string{"a1"}},
		// rfLeft = min(rf, nodeCount); a datacenter the ring lacks is skipped.
		{"one node, NTS dc1:3 dc9:2", skewed[:1], 99, nts(map[string]int{"dc1": 3, "dc9": 2}), []string{"a1"}},
		// Two racks, RF 3: one rack repeat allowed. From a1: a1 (new rack),
		// a2 (the repeat), a3 refused (no repeat left), b1 (rack B, met later).
		{"fewer racks than RF: repeat, skip, fill B later", skewed, 10, nts(map[string]int{"dc1": 3}), []string{"a1", "a2", "b1"}},
		{"fewer racks than RF, from b1", skewed, 35, nts(map[string]int{"dc1": 3}), []string{"b1", "a1", "a2"}},
		// RF 2 over two racks: no repeat, so a2 and a3 are passed over for b1.
		{"RF equal to racks", skewed, 10, nts(map[string]int{"dc1": 2}), []string{"a1", "b1"}},
		// RF 9 over four nodes: all four, repeats allowed up to 9 - 2.
		{"RF above node count", skewed, 35, nts(map[string]int{"dc1": 9, "dc2": 1}), []string{"b1", "x1", "a1", "a2", "a3"}},
		// Racks are (datacenter, rack) pairs: dc2's rack A is not dc1's.
		{"same rack name in two datacenters", skewed, 45, nts(map[string]int{"dc1": 1, "dc2": 1}), []string{"x1", "a1"}},
		// firstTokenIndex: a token equal to a node's is that node's range's end.
		{"token exactly a node's", skewed, 20, consistency.Simple(2), []string{"a2", "a3"}},
		{"token one past a node's", skewed, 21, consistency.Simple(2), []string{"a3", "b1"}},
		// Past the largest token the walk wraps to the smallest.
		{"past the largest token", skewed, ring.MaxToken, nts(map[string]int{"dc1": 2, "dc2": 1}), []string{"a1", "b1", "x1"}},
	} {
		got, err := mustRing(t, tc.nodes).ReplicasFor(tc.token, tc.repl)
		if err != nil || !slices.Equal(ids(got), tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.name, ids(got), err, tc.want)
		}
	}
}

// Murmur3Partitioner.describeOwnership's one-token case and
// StorageService.effectiveOwnership: the only node of a ring owns all of
// it, whatever the replication asks for.
func TestCassandraOneNodeOwnsTheRing(t *testing.T) {
	r := mustRing(t, []ring.Node{{ID: "n1", Datacenter: "dc1", Rack: "r1", Tokens: []int64{42}}})
	for _, repl := range []consistency.Replication{consistency.Simple(1), consistency.Simple(3),
		consistency.NetworkTopology(map[string]int{"dc1": 3})} {
		own, err := r.Ownership(repl)
		if err != nil || own["n1"] != 1 {
			t.Errorf("%v: ownership %v, %v; want n1 1", repl, own, err)
		}
	}
}

// A key whose token is exactly a node's token belongs to that node's range
// (TokenMetadata.firstTokenIndex finds it by binary search): nodes placed
// at the tokens of the dtest's int keys 5, 1 and 3 are each their key's
// primary, through a Locator hashing the key.
func TestCassandraKeyOnANodesToken(t *testing.T) {
	nodes := []ring.Node{
		{ID: "k5", Datacenter: "dc1", Rack: "r1", Tokens: []int64{dtestMurmur3Hashes[5]}},
		{ID: "k1", Datacenter: "dc1", Rack: "r2", Tokens: []int64{dtestMurmur3Hashes[1]}},
		{ID: "k3", Datacenter: "dc1", Rack: "r3", Tokens: []int64{dtestMurmur3Hashes[3]}},
	}
	loc := dtestLocator(t, nodes, consistency.NetworkTopology(map[string]int{"dc1": 2}))
	for key, want := range map[int32][]string{5: {"k5", "k1"}, 1: {"k1", "k3"}, 3: {"k3", "k5"}, 10: {"k1", "k3"}} {
		reps, _, err := loc.Locate("test", string(intKey(key)))
		if err != nil || !slices.Equal(endpointIDs(reps), want) {
			t.Errorf("key %d: %v, %v; want %v", key, endpointIDs(reps), err, want)
		}
	}
}
