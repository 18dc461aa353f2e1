package ring

import (
	"fmt"
	"hash/maphash"
	"sync"
	"testing"
)

// The table finds what was added and not removed, through growth and
// through the markers removals leave, and an ID removed and added again
// finds its new node.
func TestNodeTableAddGetRemove(t *testing.T) {
	tb := newNodeTable(16, maphash.MakeSeed(), &tracked{})
	nodes := map[string]*tracked{}
	for round := range 4 {
		for i := range 1000 {
			id := fmt.Sprintf("n%d", i)
			if i%4 == round && nodes[id] != nil {
				if !tb.remove(id) {
					t.Fatalf("round %d: %s not removed", round, id)
				}
				delete(nodes, id)
			}
		}
		for i := range 1000 {
			id := fmt.Sprintf("n%d", i)
			if nodes[id] == nil && tb.get(id) == nil {
				nodes[id] = &tracked{id: id}
				tb = tb.add(nodes[id])
			}
		}
		n := 0
		tb.each(func(x *tracked) bool { n++; return nodes[x.id] == x })
		if n != len(nodes) || tb.live != n || 2*tb.used > len(tb.slots) {
			t.Fatalf("round %d: %d nodes in a table of %d slots (%d used, %d live), want %d", round, n, len(tb.slots), tb.used, tb.live, len(nodes))
		}
		for id, x := range nodes {
			if tb.get(id) != x {
				t.Fatalf("round %d: %s not found", round, id)
			}
		}
	}
	if tb.get("") != nil || tb.remove("absent") {
		t.Error("found a node never added")
	}
}

// Readers see every node added before they look, while one writer adds,
// grows and removes (run with -race).
func TestNodeTableReadersDuringWrites(t *testing.T) {
	var mu sync.Mutex // the writer's, as addMu
	d := &Detector{}
	d.nodes.Store(newNodeTable(16, maphash.MakeSeed(), &tracked{}))
	keep := &tracked{id: "keep"}
	d.nodes.Store(d.nodes.Load().add(keep))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if d.nodes.Load().get("keep") != keep {
					t.Error("a node added before the reader looked is missing")
					return
				}
			}
		})
	}
	for i := range 5000 {
		mu.Lock()
		tb := d.nodes.Load()
		d.nodes.Store(tb.add(&tracked{id: fmt.Sprint(i)}))
		if i%3 == 0 {
			d.nodes.Load().remove(fmt.Sprint(i / 2))
		}
		mu.Unlock()
	}
	close(stop)
	wg.Wait()
}
