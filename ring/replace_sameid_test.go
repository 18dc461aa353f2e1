package ring_test

import (
	"fmt"
	"testing"

	"github.com/readpath/readpath/ring"
)

// ReplaceNode "connecting to n": a replacement that reuses the old node's
// ID gets a connection of its own.
func TestReplaceNodeReusingItsIDConnects(t *testing.T) {
	nodes := randomNodes(2, 6, 8, 2, 3)
	l, c := newLocator(t, nodes)
	before, _ := l.Replica("n02")
	if err := l.ReplaceNode("n02", ring.Node{ID: "n02", Datacenter: nodes[2].Datacenter, Rack: nodes[2].Rack}); err != nil {
		t.Fatal(err)
	}
	after, _ := l.Replica("n02")
	if c.calls.Load() != 7 || after == before {
		t.Errorf("Connect calls %d, replica replaced: %v; want 7, true", c.calls.Load(), after != before)
	}
	for i := range 2000 {
		for table := range tables {
			rs, _, _ := l.Locate(table, fmt.Sprint(i))
			for _, r := range rs {
				if r.Endpoint().ID == "n02" && r != after {
					t.Fatalf("Locate(%s, %d) still hands out the replaced node's replica", table, i)
				}
			}
		}
	}
}
