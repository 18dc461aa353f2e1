package ring

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"pgregory.net/rapid"
)

// shortRackNodes is n nodes of vnodes tokens in one datacenter, all on rack
// r1 but the first, alone on r2: at factor 3 every walk takes two nodes of
// r1 and must then find the one of r2.
func shortRackNodes(seed uint64, n, vnodes int) []Node {
	rng := rand.New(rand.NewPCG(seed, 7))
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{ID: fmt.Sprintf("n%04d", i), Datacenter: "dc1", Rack: "r1"}
		for range vnodes {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
	}
	nodes[0].Rack = "r2"
	return nodes
}

// offersPerRange places every range of nodes under repl and returns the
// tokens offered per range.
func offersPerRange(t *testing.T, nodes []Node, repl consistency.Replication) float64 {
	t.Helper()
	r, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	w := r.newWalker(repl)
	var dst []int32
	for i := range r.tokens {
		dst = w.walk(i, dst)
	}
	return float64(w.offers) / float64(len(r.tokens))
}

// Placing a ring whose datacenter has a rack of one node costs about as
// much per range at 1,000 nodes as at 100: each walk used to cross about
// the ring to find that node, offering 93 tokens a range at 100 nodes of
// 16 tokens and 940 at 1,000; now 51 and 66.
func TestAShortRackDoesNotLengthenWalks(t *testing.T) {
	repl := consistency.NetworkTopology(map[string]int{"dc1": 3})
	small := offersPerRange(t, shortRackNodes(1, 100, 16), repl)
	large := offersPerRange(t, shortRackNodes(1, 1000, 16), repl)
	t.Logf("tokens offered per range: %.0f at 100 nodes, %.0f at 1,000", small, large)
	if large > 2*small || large > 4*skipAfter {
		t.Errorf("tokens offered per range: %.0f at 100 nodes, %.0f at 1,000; want about the same, under %d", small, large, 4*skipAfter)
	}
}

// A walk that jumps takes the nodes a walk token by token takes, in the
// same order, and meets as many tokens: placeChanged relies on the count.
// The rings are lopsided so that walks jump: racks of one node, and
// datacenters of few nodes beside large ones.
func TestJumpingWalksAgreeWithPlainWalks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, repl := genLopsided(t)
		r, err := New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		w := r.newWalker(repl)
		var dst []int32
		for range 50 {
			start := rapid.IntRange(0, len(r.tokens)-1).Draw(t, "start")
			dst = w.walk(start, dst)
			want, met := plainWalk(r, repl, start)
			if !slices.Equal(dst, want) || w.met != met {
				t.Fatalf("range %d: took %v meeting %d tokens; a plain walk %v meeting %d", start, dst, w.met, want, met)
			}
		}
	})
}

func genLopsided(t *rapid.T) ([]Node, consistency.Replication) {
	factors := map[string]int{}
	var nodes []Node
	for d := range rapid.IntRange(1, 4).Draw(t, "dcs") {
		dc := fmt.Sprintf("dc%d", d)
		factors[dc] = rapid.IntRange(1, 5).Draw(t, "factor")
		for k := range rapid.IntRange(1, 4).Draw(t, "racks") {
			for range rapid.SampledFrom([]int{1, 1, 2, 30, 120}).Draw(t, "rack size") {
				nodes = append(nodes, Node{ID: fmt.Sprintf("n%d", len(nodes)), Datacenter: dc, Rack: fmt.Sprintf("r%d", k)})
			}
		}
	}
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	vnodes := rapid.IntRange(1, 16).Draw(t, "vnodes")
	for i := range nodes {
		for range vnodes {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
	}
	return nodes, consistency.NetworkTopology(factors)
}

// plainWalk is NetworkTopologyStrategy.calculateNaturalReplicas written
// out token by token, with maps: the replicas of the range ending at
// tokens[start], and how many tokens the walk met.
func plainWalk(r *Ring, repl consistency.Replication, start int) ([]int32, int) {
	left, repeats := map[string]int{}, map[string]int{}
	for _, f := range repl.Datacenters() {
		if q, ok := r.quota(f); ok {
			left[f.Datacenter], repeats[f.Datacenter] = q.left, q.repeats
		}
	}
	var picked []int32
	taken, seen := map[int32]bool{}, map[[2]string]bool{}
	i := 0
	for want := len(left); want > 0 && i < len(r.owners); i++ {
		o := r.owners[(start+i)%len(r.owners)]
		n := r.nodes[o]
		rack := [2]string{n.Datacenter, n.Rack}
		if left[n.Datacenter] == 0 || taken[o] {
			continue
		}
		if seen[rack] {
			if repeats[n.Datacenter] <= 0 {
				continue
			}
			repeats[n.Datacenter]--
		}
		seen[rack], taken[o] = true, true
		picked = append(picked, o)
		if left[n.Datacenter]--; left[n.Datacenter] == 0 {
			want--
		}
	}
	return picked, i
}

// smallDCNodes is n nodes of 16 tokens: three in datacenter "small", on
// three racks, the others in nine datacenters of three racks each.
func smallDCNodes(n int) ([]Node, consistency.Replication) {
	rng := rand.New(rand.NewPCG(1, 2))
	factors := map[string]int{}
	nodes := make([]Node, n)
	for i := range nodes {
		dc := fmt.Sprintf("dc%d", i%9)
		if i < 3 {
			dc = "small"
		}
		factors[dc] = 3
		nodes[i] = Node{ID: fmt.Sprint(i), Datacenter: dc, Rack: fmt.Sprint(i % 3)}
		for range 16 {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
	}
	return nodes, consistency.NetworkTopology(factors)
}

// A datacenter of three nodes beside large ones: every walk must meet all
// three, which hold fewer tokens the larger the ring. Walks offered 153
// tokens a range at 100 nodes, 1,524 at 1,000; now 123 and 232.
func TestASmallDatacenterDoesNotLengthenWalks(t *testing.T) {
	small100, repl := smallDCNodes(100)
	large1000, _ := smallDCNodes(1000)
	small := offersPerRange(t, small100, repl)
	large := offersPerRange(t, large1000, repl)
	t.Logf("tokens offered per range: %.0f at 100 nodes, %.0f at 1,000", small, large)
	if large > 3*small {
		t.Errorf("tokens offered per range: %.0f at 100 nodes, %.0f at 1,000; want at most 3 times as many", small, large)
	}
}
