package ring_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
	"pgregory.net/rapid"
)

// A port of Cassandra's NetworkTopologyStrategyTest.testCalculateEndpoints
// (apache/cassandra test/unit/org/apache/cassandra/locator/NetworkTopologyStrategyTest.java):
// random datacenters and racks (1 to 3*rf-1 racks per datacenter), random
// vnodes, random tokens; the placement must agree with the pre-3.0
// algorithm on the primary replica and on the set.
func TestNetworkTopologyAgreesWithLegacyPlacement(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, repl := genTopology(t)
		r, err := ring.New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			tok := rapid.Int64().Draw(t, "token")
			got, err := r.ReplicasFor(tok, repl)
			if err != nil {
				t.Fatal(err)
			}
			want := legacyTopology(nodes, tok, repl)
			if !samePrimaryAndSet(ids(got), want) {
				t.Fatalf("token %d: %v, legacy %v", tok, ids(got), want)
			}
			checkRingOrder(t, r, tok, got)
		}
	})
}

// genTopology draws nodes spread over datacenters with Cassandra's test
// factors (rf1, rf3, rf5_*), with random racks and vnodes.
func genTopology(t *rapid.T) ([]ring.Node, consistency.Replication) {
	factors := map[string]int{"rf1": 1, "rf3": 3, "rf5_1": 5, "rf5_2": 5}
	racks := map[string]int{}
	var dcs []string
	for dc, rf := range factors {
		racks[dc] = rapid.IntRange(1, 3*rf-1).Draw(t, "racks of "+dc)
		dcs = append(dcs, dc)
	}
	slices.Sort(dcs)
	n := rapid.IntRange(1, 40).Draw(t, "nodes")
	vnodes := rapid.IntRange(1, 16).Draw(t, "vnodes")
	used := map[int64]bool{}
	nodes := make([]ring.Node, n)
	for i := range nodes {
		dc := rapid.SampledFrom(dcs).Draw(t, "dc")
		rack := rapid.IntRange(0, racks[dc]-1).Draw(t, "rack")
		nodes[i] = ring.Node{ID: "n" + strconv.Itoa(i), Datacenter: dc, Rack: strconv.Itoa(rack)}
		for len(nodes[i].Tokens) < vnodes {
			if tok := rapid.Int64().Draw(t, "vnode"); !used[tok] {
				used[tok] = true
				nodes[i].Tokens = append(nodes[i].Tokens, tok)
			}
		}
	}
	return nodes, consistency.NetworkTopology(factors)
}

// checkRingOrder checks that replicas come in the order the clockwise walk
// from tok first meets them, and that no node repeats.
func checkRingOrder(t *rapid.T, r *ring.Ring, tok int64, got []ring.Node) {
	tokens := r.Tokens()
	start, _ := slices.BinarySearch(tokens, tok)
	first := map[string]int{}
	for i := range tokens {
		owner := r.Owner(tokens[(start+i)%len(tokens)]).ID
		if _, ok := first[owner]; !ok {
			first[owner] = i
		}
	}
	for i := 1; i < len(got); i++ {
		if first[got[i-1].ID] >= first[got[i].ID] {
			t.Fatalf("token %d: %v not in ring order", tok, ids(got))
		}
	}
}

// Per datacenter, NetworkTopologyStrategy places min(rf, nodes) replicas,
// on min(that, racks) distinct racks: every rack first, then repeats.
func TestNetworkTopologyCountsAndRacks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, repl := genTopology(t)
		r, _ := ring.New(nodes)
		got, _ := r.ReplicasFor(rapid.Int64().Draw(t, "token"), repl)
		dcNodes, dcRacks := map[string]int{}, map[string]map[string]bool{}
		for _, n := range nodes {
			dcNodes[n.Datacenter]++
			addRack(dcRacks, n)
		}
		perDC, perRacks := map[string]int{}, map[string]map[string]bool{}
		for _, n := range got {
			perDC[n.Datacenter]++
			addRack(perRacks, n)
		}
		for _, f := range repl.Datacenters() {
			want := min(f.Factor, dcNodes[f.Datacenter])
			if perDC[f.Datacenter] != want {
				t.Fatalf("%s: %d replicas, want %d", f.Datacenter, perDC[f.Datacenter], want)
			}
			if racks := len(perRacks[f.Datacenter]); racks != min(want, len(dcRacks[f.Datacenter])) {
				t.Fatalf("%s: replicas on %d racks, want %d", f.Datacenter, racks, min(want, len(dcRacks[f.Datacenter])))
			}
		}
	})
}

func addRack(m map[string]map[string]bool, n ring.Node) {
	if m[n.Datacenter] == nil {
		m[n.Datacenter] = map[string]bool{}
	}
	m[n.Datacenter][n.Rack] = true
}

// SimpleStrategy is the first rf distinct nodes clockwise: the reference
// locator's answer.
func TestSimpleStrategyMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, _ := genTopology(t)
		r, _ := ring.New(nodes)
		rf := rapid.IntRange(1, 6).Draw(t, "rf")
		ref := newRefLocate(r, rf)
		key := rapid.StringN(0, 24, -1).Draw(t, "key")
		got, err := r.ReplicasFor(ring.Murmur3Token([]byte(key)), consistency.Simple(rf))
		if err != nil || !slices.Equal(ids(got), ref.locate(key)) {
			t.Fatalf("key %q: %v, %v; reference %v", key, ids(got), err, ref.locate(key))
		}
	})
}
