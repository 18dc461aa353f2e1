package ring_test

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// refNTS is a naive, independent rendering of Cassandra 4.1's
// NetworkTopologyStrategy.calculateNaturalReplicas and its
// DatacenterEndpoints.addEndpointAndCheckIfDone (apache/cassandra
// src/java/org/apache/cassandra/locator/NetworkTopologyStrategy.java),
// written from its description, to check the exact replica order.
func refNTS(nodes []ring.Node, tok int64, rf map[string]int) []string {
	type vn struct {
		t int64
		n ring.Node
	}
	var vs []vn
	for _, n := range nodes {
		for _, t := range n.Tokens {
			vs = append(vs, vn{t, n})
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].t < vs[j].t })
	start := sort.Search(len(vs), func(i int) bool { return vs[i].t >= tok })
	if start == len(vs) {
		start = 0
	}
	type dcs struct{ left, rep int }
	nodeCount, racks := map[string]int{}, map[string]map[string]bool{}
	for _, n := range nodes {
		nodeCount[n.Datacenter]++
		if racks[n.Datacenter] == nil {
			racks[n.Datacenter] = map[string]bool{}
		}
		racks[n.Datacenter][n.Rack] = true
	}
	st := map[string]*dcs{}
	fill := 0
	for dc, f := range rf {
		if f <= 0 || nodeCount[dc] == 0 {
			continue
		}
		st[dc] = &dcs{min(f, nodeCount[dc]), f - len(racks[dc])}
		fill++
	}
	var out []string
	seen := map[[2]string]bool{}
	for i := 0; fill > 0 && i < len(vs); i++ {
		n := vs[(start+i)%len(vs)].n
		d := st[n.Datacenter]
		if d == nil || d.left <= 0 || slices.Contains(out, n.ID) {
			continue
		}
		loc := [2]string{n.Datacenter, n.Rack}
		if !seen[loc] {
			seen[loc] = true
		} else if d.rep > 0 {
			d.rep--
		} else {
			continue
		}
		out = append(out, n.ID)
		d.left--
		if d.left == 0 {
			fill--
		}
	}
	return out
}

// Exact placement order, not only primary and set, on random rings with
// datacenters short of nodes or racks, and a factor for an absent one.
func TestNetworkTopologyExactOrderAgainstNaiveReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 400; it++ {
		var nodes []ring.Node
		used := map[int64]bool{}
		nn := 1 + rng.IntN(12)
		for i := 0; i < nn; i++ {
			n := ring.Node{ID: string(rune('A' + i)), Datacenter: []string{"d1", "d2", "d3"}[rng.IntN(3)], Rack: []string{"a", "b", "c", "d"}[rng.IntN(4)]}
			for k := 0; k < 1+rng.IntN(4); k++ {
				tk := int64(rng.IntN(200))
				if !used[tk] {
					used[tk] = true
					n.Tokens = append(n.Tokens, tk)
				}
			}
			if len(n.Tokens) == 0 {
				n.Tokens = []int64{int64(1000 + i)}
			}
			nodes = append(nodes, n)
		}
		rf := map[string]int{"d1": rng.IntN(6), "d2": 1 + rng.IntN(5), "d4": rng.IntN(3)}
		r, err := ring.New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		for tok := int64(-1); tok < 1200; tok += 7 {
			got, err := r.ReplicasFor(tok, consistency.NetworkTopology(rf))
			if err != nil {
				t.Fatal(err)
			}
			var g []string
			for _, n := range got {
				g = append(g, n.ID)
			}
			if w := refNTS(nodes, tok, rf); !slices.Equal(g, w) {
				t.Fatalf("nodes %v rf %v tok %d: got %v want %v", nodes, rf, tok, g, w)
			}
		}
	}
}
