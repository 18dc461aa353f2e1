package ring

import (
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/replica"
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

// Down lists a node once when, as it reads the table, the node is
// forgotten and convicted again: it meets it in the slot it left, read
// before Forget, and again in the slot it came back to, further along,
// read after.
func TestDownListsANodeForgottenAndConvictedAgainOnce(t *testing.T) {
	d, err := NewDetector(DetectorConfig{ReadmitAfter: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tb := d.nodes.Load()
	id := "x"
	for i := 0; maphash.String(tb.seed, id)&uint64(len(tb.slots)-1) == uint64(len(tb.slots)-1); i++ {
		id = fmt.Sprint("x", i) // one whose next slot does not wrap around
	}
	fail := func() {
		d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: id}, Err: replica.ErrConnectionFailed})
	}
	fail()
	interleaved := func(f func(*tracked) bool) {
		done := false
		tb.each(func(t *tracked) bool {
			more := f(t)
			if t.id == id && !done { // the reader has read its slot
				done = true
				d.Forget(id)
				fail()
			}
			return more
		})
	}
	if got := convicted(interleaved); !slices.Equal(got, []string{id}) {
		t.Errorf("Down = %q, want [%s]", got, id)
	}
	if d.nodes.Load() != tb {
		t.Fatal("the table grew: the test no longer interleaves as meant")
	}
}
