package ring_test

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// dtestMurmur3Hashes is replication_test.py's murmur3_hashes (also in
// client_request_metrics_local_remote_test.py) of apache/cassandra-dtest:
// the tokens of the int partition keys 1 to 20, each hashed as its CQL
// encoding, 4 big-endian bytes.
var dtestMurmur3Hashes = map[int32]int64{
	5: -7509452495886106294, 10: -6715243485458697746, 16: -5477287129830487822,
	13: -5034495173465742853, 11: -4156302194539278891, 1: -4069959284402364209,
	19: -3974532302236993209, 8: -3799847372828181882, 2: -3248873570005575792,
	4: -2729420104000364805, 18: -2695747960476065067, 15: -1191135763843456182,
	20: 1388667306199997068, 7: 1634052884888577606, 6: 2705480034054113608,
	9: 3728482343045213994, 14: 4279681877540623768, 17: 5467144456125416399,
	12: 8582886034424406875, 3: 9010454139840013625,
}

func intKey(k int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(k)) }

// The dtest computes them once, with Cassandra; Murmur3Token must agree.
func TestDtestReplicationMurmur3Hashes(t *testing.T) {
	for k, want := range dtestMurmur3Hashes {
		if got := ring.Murmur3Token(intKey(k)); got != want {
			t.Errorf("token(%d) = %d, want %d", k, got, want)
		}
	}
}

// ccmNodes is the cluster ccm's populate(counts) starts without vnodes:
// node1, node2 ... at 127.0.0.1 ... on one rack, datacenter dcN holding the
// balanced tokens i * (2^64 / n) - 2^63 plus 100 * (N-1)
// (ccmlib cluster.py, balanced_tokens and balanced_tokens_across_dcs). So
// node1 holds Long.MIN_VALUE, Murmur3's minimum token.
func ccmNodes(counts ...int) []ring.Node {
	var nodes []ring.Node
	for dc, n := range counts {
		step := new(big.Int).Div(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(int64(n)))
		for i := range n {
			tok := new(big.Int).Mul(step, big.NewInt(int64(i)))
			tok.Sub(tok, new(big.Int).Lsh(big.NewInt(1), 63)).Add(tok, big.NewInt(int64(100*dc)))
			nodes = append(nodes, ring.Node{ID: fmt.Sprint("127.0.0.", len(nodes)+1), Datacenter: fmt.Sprint("dc", dc+1),
				Rack: "rack1", Tokens: []int64{tok.Int64()}})
		}
	}
	return nodes
}

// dtestReplicasForToken is TestReplication.get_replicas_for_token of
// replication_test.py, the dtest's own expectation: the first node whose
// token is at or after the key's, wrapping, then the next ones in ring
// order up to rf. nodes hold one token each, in ascending order; under
// NetworkTopologyStrategy (one rack) the dtest applies it to each
// datacenter's nodes.
func dtestReplicasForToken(token int64, rf int, nodes []ring.Node) []string {
	first := 0
	for i, n := range nodes {
		if token <= n.Tokens[0] {
			first = i
			break
		}
	}
	var out []string
	for i := range min(rf, len(nodes)) {
		out = append(out, nodes[(first+i)%len(nodes)].ID)
	}
	return out
}

// TestReplication.test_simple (replication_test.py): SimpleStrategy over
// ccm's three nodes; the dtest's RF 3, and RF 1 and 2, whose order the
// dtest's reference also gives. Each key is placed by ReplicasFor and by a
// Locator hashing its CQL bytes.
func TestDtestReplicationSimple(t *testing.T) {
	nodes := ccmNodes(3)
	if got := []int64{nodes[0].Tokens[0], nodes[1].Tokens[0], nodes[2].Tokens[0]}; !slices.Equal(got,
		[]int64{ring.MinToken, -3074457345618258603, 3074457345618258602}) {
		t.Fatalf("ccm tokens %v", got)
	}
	r := mustRing(t, nodes)
	for rf := 1; rf <= 3; rf++ {
		repl := consistency.Simple(rf)
		loc := dtestLocator(t, nodes, repl)
		for k, tok := range dtestMurmur3Hashes {
			want := dtestReplicasForToken(tok, rf, nodes)
			got, err := r.ReplicasFor(tok, repl)
			if err != nil || !slices.Equal(ids(got), want) {
				t.Errorf("rf %d, key %d: %v, %v; want %v", rf, k, ids(got), err, want)
			}
			reps, _, err := loc.Locate("test", string(intKey(k)))
			if err != nil || !slices.Equal(endpointIDs(reps), want) {
				t.Errorf("rf %d, key %d: Locate %v, %v; want %v", rf, k, endpointIDs(reps), err, want)
			}
		}
	}
}

// TestReplication.test_network_topology (replication_test.py): two
// datacenters of three ccm nodes on one rack, {'dc1': 2, 'dc2': 2}. The
// dtest compares sets (its reference lists dc1's replicas, then dc2's);
// Cassandra's walk interleaves the datacenters, so the primary is checked
// too: the first node at or after the key's token, whatever its datacenter.
// CASSANDRA-5632's one forwarded message per remote datacenter is a write
// path concern and not ported.
func TestDtestReplicationNetworkTopology(t *testing.T) {
	nodes := ccmNodes(3, 3)
	rf := map[string]int{"dc1": 2, "dc2": 2}
	repl := consistency.NetworkTopology(rf)
	r, loc := mustRing(t, nodes), dtestLocator(t, nodes, repl)
	for k, tok := range dtestMurmur3Hashes {
		var want []string
		for dc, f := range rf {
			var in []ring.Node
			for _, n := range nodes {
				if n.Datacenter == dc {
					in = append(in, n)
				}
			}
			want = append(want, dtestReplicasForToken(tok, f, in)...)
		}
		got, err := r.ReplicasFor(tok, repl)
		if err != nil || !sameSet(ids(got), want) || got[0].ID != r.Owner(tok).ID {
			t.Errorf("key %d (token %d): %v, %v; want the set %v, primary %s", k, tok, ids(got), err, want, r.Owner(tok).ID)
		}
		reps, _, err := loc.Locate("test", string(intKey(k)))
		if err != nil || !slices.Equal(endpointIDs(reps), ids(got)) {
			t.Errorf("key %d: Locate %v, %v; want %v", k, endpointIDs(reps), err, ids(got))
		}
	}
}

func dtestLocator(t *testing.T, nodes []ring.Node, repl consistency.Replication) *ring.Locator {
	t.Helper()
	loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes,
		Tables:  map[string]consistency.Replication{"test": repl},
		Connect: new(connector).connect})
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
