package ring_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// cassandraNTS is an independent, literal transcription of Cassandra 4.1's
// NetworkTopologyStrategy.calculateNaturalReplicas with its
// DatacenterEndpoints (apache/cassandra
// src/java/org/apache/cassandra/locator/NetworkTopologyStrategy.java):
// per datacenter with a positive factor and at least one node, rfLeft =
// min(rf, nodeCount) and acceptableRackRepeats = rf - rackCount; the ring
// iterator starts at TokenMetadata.firstTokenIndex and wraps once; a node
// of a (dc, rack) pair not yet in seenRacks is taken, else it is taken
// only while acceptableRackRepeats > 0.
func cassandraNTS(nodes []ring.Node, token int64, rf map[string]int) []string {
	type vnode struct {
		tok int64
		n   ring.Node
	}
	var vs []vnode
	nodeCount := map[string]int{}
	racks := map[string]map[string]bool{}
	for _, n := range nodes {
		nodeCount[n.Datacenter]++
		if racks[n.Datacenter] == nil {
			racks[n.Datacenter] = map[string]bool{}
		}
		racks[n.Datacenter][n.Rack] = true
		for _, t := range n.Tokens {
			vs = append(vs, vnode{t, n})
		}
	}
	slices.SortFunc(vs, func(a, b vnode) int {
		switch {
		case a.tok < b.tok:
			return -1
		case a.tok > b.tok:
			return 1
		}
		return 0
	})
	type dcEndpoints struct{ rfLeft, repeats int }
	dcs := map[string]*dcEndpoints{}
	toFill := 0
	for dc, f := range rf {
		if f <= 0 || nodeCount[dc] <= 0 {
			continue
		}
		dcs[dc] = &dcEndpoints{rfLeft: min(f, nodeCount[dc]), repeats: f - len(racks[dc])}
		toFill++
	}
	first := 0 // firstTokenIndex(ring, token, false)
	for first < len(vs) && vs[first].tok < token {
		first++
	}
	if first == len(vs) {
		first = 0
	}
	var out []string
	taken := map[string]bool{}
	seen := map[[2]string]bool{}
	for i := 0; toFill > 0 && i < len(vs); i++ {
		n := vs[(first+i)%len(vs)].n
		d := dcs[n.Datacenter]
		if d == nil || d.rfLeft == 0 || taken[n.ID] {
			continue
		}
		loc := [2]string{n.Datacenter, n.Rack}
		if !seen[loc] {
			seen[loc] = true
		} else if d.repeats <= 0 {
			continue
		} else {
			d.repeats--
		}
		taken[n.ID] = true
		out = append(out, n.ID)
		if d.rfLeft--; d.rfLeft == 0 {
			toFill--
		}
	}
	return out
}

// randomRing draws a ring of up to 14 nodes in up to 3 datacenters
// and 3 racks each, with 1 to 4 tokens each from a small space, so that
// rack repeats, datacenters smaller than their factor and wrap-around are
// all common.
func randomRing(rng *rand.Rand) []ring.Node {
	used := map[int64]bool{}
	var nodes []ring.Node
	for i := range 1 + rng.IntN(14) {
		n := ring.Node{
			ID:         "n" + strconv.Itoa(i),
			Datacenter: "dc" + strconv.Itoa(1+rng.IntN(3)),
			Rack:       "r" + strconv.Itoa(1+rng.IntN(3)),
		}
		for range 1 + rng.IntN(4) {
			tok := int64(rng.IntN(200)) - 100
			if rng.IntN(20) == 0 {
				tok = []int64{ring.MinToken, ring.MaxToken, ring.MinToken + 1, ring.MaxToken - 1}[rng.IntN(4)]
			}
			if !used[tok] {
				used[tok] = true
				n.Tokens = append(n.Tokens, tok)
			}
		}
		if len(n.Tokens) == 0 {
			n.Tokens = []int64{1000 + int64(i)}
		}
		nodes = append(nodes, n)
	}
	return nodes
}

// ReplicasFor under NetworkTopology agrees, in order, with the
// transcription of Cassandra 4.1 above on random rings: factors of 0, above
// the datacenter's node count, above its rack count, datacenters the ring
// does not have, and tokens on, between, below and above the ring's tokens.
func TestNetworkTopologyMatchesCassandra41Transcription(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 50))
	for iter := range 400 {
		nodes := randomRing(rng)
		r, err := ring.New(nodes)
		require.NoError(t, err)
		rf := map[string]int{}
		for _, dc := range []string{"dc1", "dc2", "dc3", "dc9"} {
			if rng.IntN(4) > 0 {
				rf[dc] = rng.IntN(6)
			}
		}
		rf["dc"+strconv.Itoa(1+rng.IntN(3))]++ // at least one replica
		repl := consistency.NetworkTopology(rf)
		require.NoError(t, repl.Validate())
		probes := []int64{ring.MinToken, ring.MaxToken, 0}
		for _, tok := range r.Tokens() {
			probes = append(probes, tok)
			if tok != ring.MaxToken {
				probes = append(probes, tok+1)
			}
			if tok != ring.MinToken {
				probes = append(probes, tok-1)
			}
		}
		for _, tok := range probes {
			got, err := r.ReplicasFor(tok, repl)
			require.NoError(t, err)
			want := cassandraNTS(nodes, tok, rf)
			if !slices.Equal(ids(got), want) {
				t.Fatalf("iteration %d, ring %v, %v, token %d: %v, want %v", iter, nodes, repl, tok, ids(got), want)
			}
		}
	}
}

// The same on large skewed rings, whose walks meet more than 64 tokens in
// a row they may not take and so jump ahead (placement_skip.go): a big
// rack beside racks of one node holding one token, and a small datacenter.
func TestNetworkTopologyJumpsMatchCassandra41Transcription(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 51))
	for iter := range 10 {
		var nodes []ring.Node
		used := map[int64]bool{ring.MinToken: true}
		add := func(id, dc, rack string, tokens int) {
			n := ring.Node{ID: id, Datacenter: dc, Rack: rack}
			for len(n.Tokens) < tokens {
				tok := int64(rng.Uint64())
				if !used[tok] {
					used[tok] = true
					n.Tokens = append(n.Tokens, tok)
				}
			}
			nodes = append(nodes, n)
		}
		for i := range 10 + rng.IntN(20) {
			add("big"+strconv.Itoa(i), "dc1", "A", 16)
		}
		for i := range 1 + rng.IntN(3) {
			add("lone"+strconv.Itoa(i), "dc1", "B"+strconv.Itoa(i), 1)
		}
		for i := range 1 + rng.IntN(3) {
			add("small"+strconv.Itoa(i), "dc2", "X"+strconv.Itoa(rng.IntN(2)), 1+rng.IntN(2))
		}
		r := mustRing(t, nodes)
		rf := map[string]int{"dc1": 1 + rng.IntN(5), "dc2": rng.IntN(4)}
		repl := consistency.NetworkTopology(rf)
		for k, tok := range append(r.Tokens(), ring.MinToken, ring.MaxToken) {
			if k%4 != 0 && tok != ring.MinToken && tok != ring.MaxToken {
				continue // the reference sorts the ring at every call
			}
			got, err := r.ReplicasFor(tok, repl)
			require.NoError(t, err)
			if want := cassandraNTS(nodes, tok, rf); !slices.Equal(ids(got), want) {
				t.Fatalf("iteration %d, %v, token %d: %v, want %v", iter, repl, tok, ids(got), want)
			}
		}
	}
}

// Hand-derived from NetworkTopologyStrategy.calculateNaturalReplicas (4.1)
// on one ring whose datacenters interleave: dc1 has racks A (a1, a2, a3)
// and B (b1); dc2 has one rack X (x1, x2). Tokens: a1 10, x1 15, a2 20,
// b1 30, x2 35, a3 40.
func TestNetworkTopologyInterleavedDatacenters(t *testing.T) {
	node := func(id, dc, rack string, tok int64) ring.Node {
		return ring.Node{ID: id, Datacenter: dc, Rack: rack, Tokens: []int64{tok}}
	}
	r := mustRing(t, []ring.Node{
		node("a1", "dc1", "A", 10), node("x1", "dc2", "X", 15), node("a2", "dc1", "A", 20),
		node("b1", "dc1", "B", 30), node("x2", "dc2", "X", 35), node("a3", "dc1", "A", 40),
	})
	nts := func(f map[string]int) consistency.Replication { return consistency.NetworkTopology(f) }
	for _, tc := range []struct {
		name  string
		token int64
		repl  consistency.Replication
		want  []string
	}{
		// dc1 rf 3, 2 racks: 1 repeat. From a1: a1 (A), x1 (dc2 rf 1,
		// done), a2 (the repeat), b1 (B).
		{"repeat taken where met", 10, nts(map[string]int{"dc1": 3, "dc2": 1}), []string{"a1", "x1", "a2", "b1"}},
		// dc2 rf 2 on one rack: 1 repeat; both x nodes.
		{"one rack, rf 2", 11, nts(map[string]int{"dc2": 2}), []string{"x1", "x2"}},
		// dc2 rf 5 with 2 nodes: rfLeft 2, both; dc1 rf 0 contributes none.
		{"rf above nodes, dc at 0", 36, nts(map[string]int{"dc1": 0, "dc2": 5}), []string{"x1", "x2"}},
		// dc1 rf 2 over 2 racks: no repeat, so a2 is passed over for b1.
		{"no repeat allowed", 41, nts(map[string]int{"dc1": 2}), []string{"a1", "b1"}},
		// A token exactly the largest is that node's; one above wraps.
		{"token equals the largest", 40, nts(map[string]int{"dc1": 1, "dc2": 1}), []string{"a3", "x1"}},
		{"token above the largest", 41, nts(map[string]int{"dc1": 1, "dc2": 1}), []string{"a1", "x1"}},
		// dc1 rf 4 = all 4 nodes: 2 repeats allowed (4 - 2 racks), both used.
		{"rf equal to nodes", 25, nts(map[string]int{"dc1": 4}), []string{"b1", "a3", "a1", "a2"}},
		// A datacenter the ring lacks contributes none.
		{"absent datacenter", 0, nts(map[string]int{"dc1": 1, "dc9": 3}), []string{"a1"}},
	} {
		got, err := r.ReplicasFor(tc.token, tc.repl)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, ids(got), tc.name)
	}
}

// SimpleStrategy skips a node met again through another of its vnodes and
// stops at the ring's node count (SimpleStrategy.calculateNaturalReplicas:
// while replicas.size() < rf && iter.hasNext(), adding only endpoints not
// yet in the list).
func TestSimpleStrategySkipsRepeatedVnodes(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "a", Datacenter: "dc1", Rack: "r1", Tokens: []int64{10, 20, 30}},
		{ID: "b", Datacenter: "dc2", Rack: "r1", Tokens: []int64{40}},
		{ID: "c", Datacenter: "dc1", Rack: "r1", Tokens: []int64{50, 60}},
	})
	for _, tc := range []struct {
		token int64
		rf    int
		want  []string
	}{
		{10, 2, []string{"a", "b"}},
		{15, 3, []string{"a", "b", "c"}},
		{45, 2, []string{"c", "a"}},
		{61, 2, []string{"a", "b"}},
		{ring.MaxToken, 9, []string{"a", "b", "c"}},
		{ring.MinToken, 1, []string{"a"}},
	} {
		got, err := r.ReplicasFor(tc.token, consistency.Simple(tc.rf))
		require.NoError(t, err)
		assert.Equal(t, tc.want, ids(got), "token %d rf %d", tc.token, tc.rf)
	}
}

// ReplicasFor and Ownership may be called on one ring from many goroutines,
// under different replications at once (the ring pools its walkers): each
// answer is the one a lone call gives. Run with -race.
func TestReplicasForConcurrentReplications(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var nodes []ring.Node
	for i := range 30 {
		nodes = append(nodes, ring.Node{ID: "n" + strconv.Itoa(i), Datacenter: "dc" + strconv.Itoa(1+i%3),
			Rack: "r" + strconv.Itoa(i%4), Tokens: ring.RandomTokens(rng, 8, nil)})
	}
	r := mustRing(t, nodes)
	repls := []consistency.Replication{
		consistency.Simple(3),
		consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2}),
		consistency.NetworkTopology(map[string]int{"dc2": 5, "dc3": 1, "dc9": 2}),
		consistency.Simple(40),
	}
	probes := make([]int64, 200)
	for i := range probes {
		probes[i] = int64(rng.Uint64())
	}
	want := make([][][]string, len(repls))
	for i, repl := range repls {
		for _, tok := range probes {
			got, err := r.ReplicasFor(tok, repl)
			require.NoError(t, err)
			want[i] = append(want[i], ids(got))
		}
	}
	wantOwn, err := r.Ownership(repls[1])
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 * len(probes) {
				i := (g + k) % len(repls)
				p := (g*31 + k) % len(probes)
				got, err := r.ReplicasFor(probes[p], repls[i])
				if err != nil || !slices.Equal(ids(got), want[i][p]) {
					errs <- repls[i].String() + ": " + strconv.Itoa(p)
					return
				}
				if k%200 == 0 {
					own, err := r.Ownership(repls[1])
					if err != nil || !mapsEqualFloat(own, wantOwn) {
						errs <- "ownership"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error("concurrent answer differs:", e)
	}
}

func mapsEqualFloat(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || math.Abs(v-w) > 1e-12 {
			return false
		}
	}
	return true
}
