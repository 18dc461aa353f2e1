package ring

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/readpath/readpath/consistency"
)

// changeCost returns the ranges walked by a node joining a ring of n
// nodes of vnodes tokens over dcs datacenters of 3 racks, then leaving it,
// with one table of factor 3 in each datacenter, and by building the
// placement of the n nodes afresh, which walks each of its ranges once.
func changeCost(t *testing.T, dcs, n, vnodes int) (join, leave, rebuild int) {
	rng := rand.New(rand.NewPCG(11, uint64(dcs)))
	nodes := make([]Node, n+1)
	factors := map[string]int{}
	for i := range nodes {
		nodes[i] = Node{ID: fmt.Sprintf("n%04d", i), Datacenter: fmt.Sprintf("dc%d", i%dcs+1), Rack: fmt.Sprintf("r%d", i/dcs%3+1)}
		for range vnodes {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
		factors[nodes[i].Datacenter] = 3
	}
	tables := map[string]consistency.Replication{"t": consistency.NetworkTopology(factors)}
	l, err := NewLocator(LocatorConfig{Nodes: nodes[:n], Tables: tables, Connect: connectFake})
	if err != nil {
		t.Fatal(err)
	}
	rebuild = l.state.Load().walks
	if err := l.AddNode(nodes[n]); err != nil {
		t.Fatal(err)
	}
	join = l.state.Load().walks
	if err := l.RemoveNode(nodes[n].ID); err != nil {
		t.Fatal(err)
	}
	leave = l.state.Load().walks
	t.Logf("%d DCs x %d nodes x %d tokens: a node joining walks %d ranges, leaving %d; a rebuild %d", dcs, n, vnodes, join, leave, rebuild)
	return join, leave, rebuild
}

// A change walks no range twice, so no more than placing every range
// afresh, however many it reaches. A node joining 30 nodes of 256 tokens
// in five datacenters reaches three quarters of the ranges, and each was
// walked on the old ring to find it, then on the new one to place it:
// 12,587 walks joining, 12,587 leaving, where a rebuild walks 7,680 (now
// 6,451 and 6,195).
func TestAChangeWalksNoMoreThanARebuild(t *testing.T) {
	join, leave, rebuild := changeCost(t, 5, 30, 256)
	if join > rebuild+256 || leave > rebuild { // joining, the ring has 256 ranges more
		t.Errorf("a node joining walked %d ranges, leaving %d; placing all afresh walks %d (%d joined)", join, leave, rebuild, rebuild+256)
	}
}

// A change that reaches few ranges walks each once, and few others: one
// datacenter of 30 nodes of 256 tokens (2,416 walks joining, 2,416
// leaving; now 1,440 and 1,184), and two of 1,000 nodes of 16 (461 and
// 461; now 246 and 230).
func TestAChangeThatReachesFewRangesWalksFew(t *testing.T) {
	for _, c := range []struct{ dcs, n, vnodes, fraction int }{{1, 30, 256, 4}, {2, 1000, 16, 40}} {
		join, leave, rebuild := changeCost(t, c.dcs, c.n, c.vnodes)
		if bound := rebuild / c.fraction; join > bound || leave > bound {
			t.Errorf("%d DCs x %d nodes x %d tokens: a node joining walked %d ranges, leaving %d; want at most %d, 1/%d of a rebuild's",
				c.dcs, c.n, c.vnodes, join, leave, bound, c.fraction)
		}
	}
}

// A node joining a datacenter of five racks at factor 3, the first on a
// sixth rack, then leaving: more racks than the factor allow no repeats
// either way, so the change reaches the ranges a node on a known rack
// does. Counting the racks beyond the factor as a change of quota
// re-placed every range: 16,016 walks joining 1,000 nodes of 16 tokens in
// two datacenters (now 168), 16,000 leaving (now 152).
func TestAFirstNodeOnANewRackWalksFew(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	n := 1000
	nodes := make([]Node, n+1)
	for i := range nodes {
		nodes[i] = Node{ID: fmt.Sprintf("n%04d", i), Datacenter: fmt.Sprintf("dc%d", i%2+1), Rack: fmt.Sprintf("r%d", i/2%5+1)}
		for range 16 {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
	}
	nodes[n].Rack = "r6"
	tables := map[string]consistency.Replication{"t": consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})}
	l, err := NewLocator(LocatorConfig{Nodes: nodes[:n], Tables: tables, Connect: connectFake})
	if err != nil {
		t.Fatal(err)
	}
	rebuild := l.state.Load().walks
	if err := l.AddNode(nodes[n]); err != nil {
		t.Fatal(err)
	}
	join := l.state.Load().walks
	if err := l.RemoveNode(nodes[n].ID); err != nil {
		t.Fatal(err)
	}
	leave := l.state.Load().walks
	t.Logf("a node joining on a new rack walks %d ranges, leaving %d; a rebuild %d", join, leave, rebuild)
	if bound := rebuild / 40; join > bound || leave > bound {
		t.Errorf("a node joining on a new rack walked %d ranges, leaving %d; want at most %d, 1/40 of a rebuild's", join, leave, bound)
	}
}
