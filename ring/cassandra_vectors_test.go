package ring_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// Pinned vectors of apache/cassandra
// test/unit/org/apache/cassandra/utils/MurmurHashPropertyTest.java,
// knownTestVectors: h1 of hash3_x64_128 with seed 0 is the token
// Murmur3Partitioner gives a non-empty key. The empty key's h1 is 0 there,
// but the partitioner gives it the minimum token.
func TestMurmur3TokenMurmurHashTestVectors(t *testing.T) {
	for _, tc := range []struct {
		key  []byte
		want int64
	}{
		{[]byte{0x00}, 5048724184180415669},
		{[]byte("Hello"), 3871253994707141660},
		{[]byte{}, ring.MinToken},
	} {
		if got := ring.Murmur3Token(tc.key); got != tc.want {
			t.Errorf("Murmur3Token(%q) = %d, want %d", tc.key, got, tc.want)
		}
	}
}

// SimpleStrategyTest.verifyGetNaturalEndpoints (apache/cassandra
// test/unit/org/apache/cassandra/locator/SimpleStrategyTest.java): nodes at
// 0, 10, ..., 40, a key between two of them is placed on the next rf nodes,
// wrapping.
func TestSimpleStrategyCassandraEndpoints(t *testing.T) {
	var nodes []ring.Node
	for i := range 5 {
		nodes = append(nodes, ring.Node{ID: fmt.Sprint("127.0.0.", i+1), Tokens: []int64{int64(10 * i)}})
	}
	r := mustRing(t, nodes)
	for _, rf := range []int{1, 3} {
		for i := range 5 {
			got, err := r.ReplicasFor(int64(10*i+5), consistency.Simple(rf))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for j := range rf {
				want = append(want, nodes[(i+j+1)%5].ID)
			}
			if !slices.Equal(ids(got), want) {
				t.Errorf("rf %d, token %d: %v, want %v", rf, 10*i+5, ids(got), want)
			}
		}
	}
}

// SimpleStrategyTest.transientReplica and
// NetworkTopologyStrategyTest.testTransientReplica, without transient
// replication: the replicas of a token just before or just after a node's
// come in ring order from the range's owner.
func TestSimpleStrategyCassandraOrder(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "1", Tokens: []int64{100}}, {ID: "2", Tokens: []int64{200}},
		{ID: "3", Tokens: []int64{300}}, {ID: "4", Tokens: []int64{400}},
	})
	for tok, want := range map[int64][]string{99: {"1", "2", "3"}, 101: {"2", "3", "4"}, 100: {"1", "2", "3"}, 401: {"1", "2", "3"}} {
		got, err := r.ReplicasFor(tok, consistency.Simple(3))
		if err != nil || !slices.Equal(ids(got), want) {
			t.Errorf("token %d: %v, %v; want %v", tok, ids(got), err, want)
		}
	}
}

// SimpleStrategyTest.testMultiDCSimpleStrategyEndpoints, the topology of
// the dtest topology_test.test_size_estimates_multidc: SimpleStrategy
// ignores datacenters, so with RF 3 over three nodes each is the primary
// of its two ranges and a replica of all six.
func TestSimpleStrategyCassandraMultiDC(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "127.0.0.1", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-6639341390736545756, -2688160409776496397}},
		{ID: "127.0.0.2", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-2506475074448728501, 8473270337963525440}},
		{ID: "127.0.0.4", Datacenter: "dc2", Rack: "r1", Tokens: []int64{-3736333188524231709, 8673615181726552074}},
	})
	primary, replicas := map[string]int{}, map[string]int{}
	for _, tok := range r.Tokens() {
		got, err := r.ReplicasFor(tok, consistency.Simple(3))
		if err != nil {
			t.Fatal(err)
		}
		if got[0].ID != r.Owner(tok).ID {
			t.Errorf("token %d: primary %s, owner %s", tok, got[0].ID, r.Owner(tok).ID)
		}
		primary[got[0].ID]++
		for _, n := range got {
			replicas[n.ID]++
		}
	}
	for _, id := range []string{"127.0.0.1", "127.0.0.2", "127.0.0.4"} {
		if primary[id] != 2 || replicas[id] != 6 {
			t.Errorf("%s: primary of %d ranges and replica of %d, want 2 and 6", id, primary[id], replicas[id])
		}
	}
}

// cassandraDummyTokens is NetworkTopologyStrategyTest.createDummyTokens,
// with the datacenters and racks of Cassandra's cassandra-topology.properties.
// Its tokens are OrderPreservingPartitioner strings ("0AB" < "123" < ...
// < "ABC"); their rank in that order stands for them.
func cassandraDummyTokens(populateDC3 bool) []ring.Node {
	nodes := []ring.Node{
		{ID: "10.0.0.10", Datacenter: "DC1", Rack: "RAC1", Tokens: []int64{2}},     // "123"
		{ID: "10.0.0.11", Datacenter: "DC1", Rack: "RAC1", Tokens: []int64{3}},     // "234"
		{ID: "10.0.0.12", Datacenter: "DC1", Rack: "RAC2", Tokens: []int64{4}},     // "345"
		{ID: "10.20.114.10", Datacenter: "DC2", Rack: "RAC1", Tokens: []int64{7}},  // "789"
		{ID: "10.20.114.11", Datacenter: "DC2", Rack: "RAC1", Tokens: []int64{8}},  // "890"
		{ID: "10.0.0.13", Datacenter: "DC1", Rack: "RAC2", Tokens: []int64{9}},     // "90A"
		{ID: "10.20.114.15", Datacenter: "DC2", Rack: "RAC2", Tokens: []int64{10}}, // "ABC"
	}
	if populateDC3 {
		nodes = append(nodes,
			ring.Node{ID: "10.21.119.13", Datacenter: "DC3", Rack: "RAC1", Tokens: []int64{5}}, // "456"
			ring.Node{ID: "10.21.119.10", Datacenter: "DC3", Rack: "RAC1", Tokens: []int64{6}}, // "567"
			ring.Node{ID: "10.21.119.14", Datacenter: "DC3", Rack: "RAC2", Tokens: []int64{1}}, // "0AB"
		)
	}
	return nodes
}

// NetworkTopologyStrategyTest.testProperties and testPropertiesWithEmptyDC:
// six distinct replicas for token "123". Cassandra checks the count; the
// lists are what its 4.1 walk takes (a second node on RAC1 of DC1 within
// DC1's one allowed rack repeat, DC2 skipping a repeat it has no allowance
// for), and the legacy walk's set and primary.
func TestNetworkTopologyCassandraProperties(t *testing.T) {
	for name, tc := range map[string]struct {
		dc3  bool
		repl map[string]int
		want []string
	}{
		"testProperties": {true, map[string]int{"DC1": 3, "DC2": 2, "DC3": 1},
			[]string{"10.0.0.10", "10.0.0.11", "10.0.0.12", "10.21.119.13", "10.20.114.10", "10.20.114.15"}},
		"testPropertiesWithEmptyDC": {false, map[string]int{"DC1": 3, "DC2": 3, "DC3": 0},
			[]string{"10.0.0.10", "10.0.0.11", "10.0.0.12", "10.20.114.10", "10.20.114.11", "10.20.114.15"}},
	} {
		nodes := cassandraDummyTokens(tc.dc3)
		repl := consistency.NetworkTopology(tc.repl)
		got, err := mustRing(t, nodes).ReplicasFor(2, repl)
		if err != nil || !slices.Equal(ids(got), tc.want) {
			t.Errorf("%s: %v, %v; want %v", name, ids(got), err, tc.want)
		}
		legacy := legacyTopology(nodes, 2, repl)
		if legacy[0] != tc.want[0] || !sameSet(legacy, tc.want) {
			t.Errorf("%s: legacy placement %v, want the same set and primary as %v", name, legacy, tc.want)
		}
	}
}

// NetworkTopologyStrategyTest.testLargeCluster: three datacenters of 2, 4
// and 8 racks, 128, 256 and 512 nodes, factors 2, 6 and 6, racks inferred
// from the address (10.dc.rack.ep) and OrderPreservingPartitioner tokens
// "%02x%02x%02x" of (ep, rack, dc), which keep their order as the integers
// they spell in hex. Each test token gets 14 distinct replicas; beyond
// Cassandra's check, each datacenter's are on min(rf, racks) racks.
func TestNetworkTopologyCassandraLargeCluster(t *testing.T) {
	racks, endpoints, factors := []int{2, 4, 8}, []int{128, 256, 512}, []int{2, 6, 6}
	var nodes []ring.Node
	rf := map[string]int{}
	for dc := range racks {
		rf[strconv.Itoa(dc)] = factors[dc]
		for rack := range racks[dc] {
			for ep := 1; ep <= endpoints[dc]/racks[dc]; ep++ {
				nodes = append(nodes, ring.Node{ID: fmt.Sprintf("10.%d.%d.%d", dc, rack, ep),
					Datacenter: strconv.Itoa(dc), Rack: strconv.Itoa(rack), Tokens: []int64{hexToken(t, fmt.Sprintf("%02x%02x%02x", ep, rack, dc))}})
			}
		}
	}
	r, repl := mustRing(t, nodes), consistency.NetworkTopology(rf)
	for _, s := range []string{"123456", "200000", "000402", "ffffff", "400200"} {
		tok := hexToken(t, s)
		got, err := r.ReplicasFor(tok, repl)
		if err != nil {
			t.Fatal(err)
		}
		used := map[string]map[string]bool{}
		for _, n := range got {
			addRack(used, n)
		}
		if len(got) != 14 || len(sameSetIDs(ids(got))) != 14 {
			t.Errorf("token %s: %d replicas (%v), want 14 distinct", s, len(got), ids(got))
		}
		for dc := range racks {
			if n := len(used[strconv.Itoa(dc)]); n != min(factors[dc], racks[dc]) {
				t.Errorf("token %s: datacenter %d on %d racks, want %d", s, dc, n, min(factors[dc], racks[dc]))
			}
		}
		if legacy := legacyTopology(nodes, tok, repl); legacy[0] != got[0].ID || !sameSet(legacy, ids(got)) {
			t.Errorf("token %s: legacy placement %v, current %v", s, legacy, ids(got))
		}
	}
}

func hexToken(t *testing.T, s string) int64 {
	v, err := strconv.ParseInt(s, 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sameSetIDs(a []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range a {
		m[id] = true
	}
	return m
}

func sameSet(a, b []string) bool {
	ma, mb := sameSetIDs(a), sameSetIDs(b)
	if len(ma) != len(mb) {
		return false
	}
	for id := range ma {
		if !mb[id] {
			return false
		}
	}
	return true
}
