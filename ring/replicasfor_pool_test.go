package ring_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/ring"
)

// ReplicasFor keeps its walkers between calls: a call over a thousand
// nodes allocates its answer and nothing else (it made flags for every
// node, and its quotas, each call).
func TestReplicasForAllocatesOnlyItsAnswer(t *testing.T) {
	race.SkipPooledAllocs(t)
	r, err := ring.New(randomNodes(3, 1000, 16, 2, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, repl := range []consistency.Replication{
		consistency.Simple(3),
		consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
	} {
		token := int64(0)
		n := testing.AllocsPerRun(200, func() {
			if _, err := r.ReplicasFor(token, repl); err != nil {
				t.Fatal(err)
			}
			token += 0x1E3779B97F4A7C15
		})
		if n != 1 {
			t.Errorf("%v: ReplicasFor allocates %v objects a call, want 1 (its answer)", repl, n)
		}
	}
}

// A walker kept by one call and taken by the next serves whatever
// replication that call asks for: calls that alternate replications,
// from many goroutines at once, answer as a ring that never served
// another call does.
func TestReplicasForKeptWalkersServeAnyReplication(t *testing.T) {
	nodes := randomNodes(4, 60, 8, 3, 4)
	repls := []consistency.Replication{
		consistency.Simple(3),
		consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2}),
		consistency.Simple(7),
		consistency.NetworkTopology(map[string]int{"dc1": 6, "dc3": 5}), // repeats racks
		consistency.NetworkTopology(map[string]int{"dc2": 1, "dc9": 2}), // a datacenter the ring lacks
	}
	tokens := make([]int64, 40)
	for i := range tokens {
		tokens[i] = int64(i) * 0x1E3779B97F4A7C15
	}
	want := make([][][]ring.Node, len(repls))
	for i, repl := range repls {
		for _, tok := range tokens {
			fresh, err := ring.New(nodes) // its first call makes a walker
			if err != nil {
				t.Fatal(err)
			}
			got, err := fresh.ReplicasFor(tok, repl)
			if err != nil {
				t.Fatal(err)
			}
			want[i] = append(want[i], got)
		}
	}
	shared, err := ring.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 200 {
				i, j := (g+k)%len(repls), (g*7+k)%len(tokens)
				got, err := shared.ReplicasFor(tokens[j], repls[i])
				if err != nil || !slices.Equal(ids(got), ids(want[i][j])) {
					t.Errorf("%v at token %d: %v, %v; want %v", repls[i], tokens[j], ids(got), err, ids(want[i][j]))
					return
				}
			}
		})
	}
	wg.Wait()
}
