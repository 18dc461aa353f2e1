package ring

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"pgregory.net/rapid"
)

func connectFake(n Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil }

// After any sequence of changes, every placement the Locator keeps must be
// the one placing every range afresh on its ring would give, with the
// replicas of its current state. Small rings over few tokens, datacenters
// and racks make changes that alter a datacenter's quotas, changes that do
// not, and wrap-arounds all frequent; 20 steps pass through a compaction.
// A token that left may come back on another node, a replacement may take
// some of its predecessor's tokens, and a node may hold up to 256 tokens.
func TestUpdatedPlacementsAgreeWithFreshOnes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := &changeGen{t: t, used: map[int64]bool{}}
		tables := map[string]consistency.Replication{
			"simple": consistency.Simple(rapid.IntRange(1, 4).Draw(t, "simple rf")),
			"nts": consistency.NetworkTopology(map[string]int{
				"dc1": rapid.IntRange(0, 4).Draw(t, "dc1 rf"), "dc2": rapid.IntRange(1, 3).Draw(t, "dc2 rf"),
			}),
			"nts3": consistency.NetworkTopology(map[string]int{
				"dc1": rapid.IntRange(0, 2).Draw(t, "nts3 dc1 rf"), "dc2": rapid.IntRange(0, 3).Draw(t, "nts3 dc2 rf"),
				"dc3": rapid.IntRange(1, 3).Draw(t, "nts3 dc3 rf"),
			}),
		}
		// NewLocator refuses a table replicating to a datacenter with no
		// node, so the ring starts with one in each; changes may empty any.
		nodes := []Node{g.nodeIn("dc1"), g.nodeIn("dc2"), g.nodeIn("dc3")}
		for range rapid.IntRange(0, 4).Draw(t, "more nodes") {
			nodes = append(nodes, g.node())
		}
		l, err := NewLocator(LocatorConfig{Nodes: nodes, Tables: tables, Connect: connectFake})
		if err != nil {
			t.Fatal(err)
		}
		for step := range 20 {
			g.change(l, step)
			wantFreshPlacements(t, l.state.Load())
		}
	})
}

// changeGen draws topology and table changes.
type changeGen struct {
	t    *rapid.T
	used map[int64]bool // the tokens of the ring, which a new node may not take
	n    int
}

// node draws a node with a new ID.
func (g *changeGen) node() Node {
	return g.nodeIn(rapid.SampledFrom([]string{"dc1", "dc2", "dc3"}).Draw(g.t, "dc"))
}

// nodeIn draws a node of datacenter dc: mostly 1 to 3 tokens from [0, 60),
// so that changes collide and wrap around; sometimes up to 256 from
// [0, 2000).
func (g *changeGen) nodeIn(dc string) Node {
	g.n++
	n := Node{
		ID:         "n" + strconv.Itoa(g.n),
		Datacenter: dc,
		Rack:       rapid.SampledFrom([]string{"a", "b", "c"}).Draw(g.t, "rack"),
	}
	vnodes, space := rapid.IntRange(1, 3).Draw(g.t, "vnodes"), int64(60)
	if rapid.IntRange(0, 9).Draw(g.t, "many vnodes") == 0 {
		vnodes, space = rapid.IntRange(1, 256).Draw(g.t, "vnodes"), 2000
	}
	for range vnodes {
		tok := rapid.Int64Range(0, space-1).Draw(g.t, "token")
		if !g.used[tok] {
			g.used[tok] = true
			n.Tokens = append(n.Tokens, tok)
		}
	}
	if len(n.Tokens) == 0 {
		n.Tokens = []int64{1_000_000 + int64(g.n)}
	}
	return n
}

// change applies one drawn change; one the Locator refuses is fine.
func (g *changeGen) change(l *Locator, step int) {
	r := l.Ring()
	ids := nodeIDs(r)
	clear(g.used) // a token that left may come back
	for _, tok := range r.tokens {
		g.used[tok] = true
	}
	switch rapid.IntRange(0, 4).Draw(g.t, "change "+strconv.Itoa(step)) {
	case 0, 1:
		_ = l.AddNode(g.node())
	case 2:
		_ = l.RemoveNode(rapid.SampledFrom(ids).Draw(g.t, "leaving"))
	case 3:
		old := rapid.SampledFrom(ids).Draw(g.t, "replaced")
		was, _ := r.Node(old)
		for _, tok := range was.Tokens {
			delete(g.used, tok) // the replacement may take them
		}
		n := g.node()
		if rapid.Bool().Draw(g.t, "same ID") {
			n.ID = old // the node moved rack or datacenter, or its tokens moved
			if rapid.Bool().Draw(g.t, "same place") {
				n.Datacenter, n.Rack = was.Datacenter, was.Rack
			}
		}
		switch rapid.IntRange(0, 2).Draw(g.t, "tokens") {
		case 0:
			n.Tokens = nil // keeps the old node's tokens
		case 1: // some of them and some new ones
			n.Tokens = append(n.Tokens, was.Tokens[:rapid.IntRange(0, len(was.Tokens)).Draw(g.t, "kept tokens")]...)
		}
		_ = l.ReplaceNode(old, n)
	case 4:
		rf := rapid.IntRange(0, 3).Draw(g.t, "new dc1 rf")
		_ = l.SetTable("nts", consistency.NetworkTopology(map[string]int{"dc1": rf, "dc2": 2}))
	}
}

func nodeIDs(r *Ring) []string {
	var ids []string
	for _, n := range r.nodes {
		ids = append(ids, n.ID)
	}
	return ids
}

// wantFreshPlacements checks every table's placement in s against one
// computed afresh on s's ring.
func wantFreshPlacements(t *rapid.T, s *locatorState) {
	t.Helper()
	for name, got := range s.tables {
		want := s.place(got.repl)
		for i := range want.ranges {
			if !slices.Equal(got.ranges[i], want.ranges[i]) { // the same replica values, in order
				t.Fatalf("table %s, range %d (token %d): %v, want %v",
					name, i, s.ring.tokens[i], rangeIDs(got.ranges[i]), rangeIDs(want.ranges[i]))
			}
		}
	}
}

func rangeIDs(rs []replica.Replica) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Endpoint().ID
	}
	return out
}

// A node joining a ring of 100 nodes of 16 tokens moves few ranges: the
// others keep the very lists they had, and so do all ranges of a table
// when only another table changed.
func TestAChangeKeepsTheRangesItDoesNotReach(t *testing.T) {
	tables := map[string]consistency.Replication{
		"users":  consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2}),
		"events": consistency.Simple(3),
	}
	nodes := bigRing(100, 16)
	l, err := NewLocator(LocatorConfig{Nodes: nodes[:99], Tables: tables, Connect: connectFake})
	if err != nil {
		t.Fatal(err)
	}
	before := l.state.Load()
	if err := l.AddNode(nodes[99]); err != nil {
		t.Fatal(err)
	}
	after := l.state.Load()
	for name := range tables {
		kept := keptLists(before.tables[name], after.tables[name])
		if total := len(after.ring.tokens); kept < total*9/10 {
			t.Errorf("%s: %d of %d ranges kept their lists, want at least 90 %%", name, kept, total)
		}
	}
	if err := l.SetTable("other", consistency.Simple(2)); err != nil {
		t.Fatal(err)
	}
	if got := l.state.Load().tables["users"]; got != after.tables["users"] {
		t.Error("adding a table placed the others again")
	}
}

func bigRing(n, vnodes int) []Node {
	rng := rand.New(rand.NewPCG(5, 1))
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{ID: fmt.Sprintf("n%03d", i), Datacenter: fmt.Sprintf("dc%d", i%2+1), Rack: fmt.Sprintf("r%d", i/2%3)}
		for range vnodes {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
	}
	return nodes
}

// keptLists counts the ranges of b whose list is the one a range of a
// with the same token had (the same memory, not only equal).
func keptLists(a, b *tableRanges) int {
	kept := 0
	for _, l := range b.ranges {
		for _, m := range a.ranges {
			if unsafe.SliceData(l) == unsafe.SliceData(m) {
				kept++
				break
			}
		}
	}
	return kept
}

// Kept lists live in the arrays of earlier placements only for a while:
// every compactAfter+1 updates, a placement copies them into one array, so
// that it does not keep alive the arrays of every placement before it.
func TestUpdatedPlacementsAreCompacted(t *testing.T) {
	tables := map[string]consistency.Replication{"events": consistency.Simple(3)}
	nodes := bigRing(40, 8)
	l, err := NewLocator(LocatorConfig{Nodes: nodes[:20], Tables: tables, Connect: connectFake})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes[20:] {
		if err := l.AddNode(n); err != nil {
			t.Fatal(err)
		}
		tr := l.state.Load().tables["events"]
		age := (i + 1) % (compactAfter + 1)
		if got, want := contiguous(tr), age == 0; tr.age != age || got != want {
			t.Fatalf("after %d updates: age %d, lists in one array = %v; want age %d, %v", i+1, tr.age, got, age, want)
		}
	}
}

// contiguous reports whether t's lists lie end to end in one array.
func contiguous(t *tableRanges) bool {
	for i := 1; i < len(t.ranges); i++ {
		prev := t.ranges[i-1]
		if unsafe.Pointer(unsafe.SliceData(t.ranges[i])) != unsafe.Add(unsafe.Pointer(unsafe.SliceData(prev)), uintptr(len(prev))*unsafe.Sizeof(prev[0])) {
			return false
		}
	}
	return true
}
