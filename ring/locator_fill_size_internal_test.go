package ring

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/readpath/readpath/consistency"
)

// A placement's lists share one backing array sized for the replicas each
// range gets: min(factor, nodes) of each datacenter. A datacenter with
// fewer nodes than its factor (dc2, one node at factor 3) must not size it
// for the factor: the placement allocates what that of factor 1, the same
// lists, does.
func TestAPlacementAllocatesOnlyTheReplicasItPlaces(t *testing.T) {
	var nodes []Node
	for i := range 12 {
		n := Node{ID: fmt.Sprintf("a%02d", i), Datacenter: "dc1", Rack: fmt.Sprintf("r%d", i%3)}
		for j := range 16 {
			n.Tokens = append(n.Tokens, int64(uint64(i*16+j)*0x9e3779b97f4a7c15))
		}
		nodes = append(nodes, n)
	}
	nodes = append(nodes, Node{ID: "b00", Datacenter: "dc2", Rack: "r0", Tokens: []int64{7, 1 << 40}})
	l, err := NewLocator(LocatorConfig{Nodes: nodes, Connect: connectFake})
	if err != nil {
		t.Fatal(err)
	}
	s := l.state.Load()
	over := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	exact := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 1})
	a, b := s.fill(over, keep{}), s.fill(exact, keep{})
	for i := range a.ranges {
		if len(a.ranges[i]) != 4 || len(b.ranges[i]) != 4 {
			t.Fatalf("range %d: %d and %d replicas, want 4", i, len(a.ranges[i]), len(b.ranges[i]))
		}
	}
	if got, want := filled(s, over), filled(s, exact); got != want {
		t.Errorf("placing {dc1: 3, dc2: 3} with one node in dc2 allocated %d bytes, {dc1: 3, dc2: 1} %d", got, want)
	}
}

// filled returns the bytes a placement under repl allocates, the least of
// a few tries so that an allocation elsewhere in the process is not
// counted.
func filled(s *locatorState, repl consistency.Replication) uint64 {
	least := ^uint64(0)
	var before, after runtime.MemStats
	for range 5 {
		runtime.ReadMemStats(&before)
		s.fill(repl, keep{})
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
