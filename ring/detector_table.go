package ring

import (
	"hash/maphash"
	"sync/atomic"
)

// nodeTable is the map of nodes that IsAlive reads: an open-addressed
// hash table whose slots readers load without a lock, and which one
// writer at a time (the detector's, under addMu) changes in place. A
// node is added in O(1), and forgotten in O(1) by a marker left in its
// slot; the slots are copied into a new table, which readers then load,
// only when the used ones would pass half of them, so n nodes added cost
// O(n) in all, or when Forget leaves fewer than an eighth of them holding
// a node, so that a table does not keep its peak size, and the markers
// lookups probe past, once the nodes that failed are forgotten. Copying
// the whole of a Go map at every node added, as a map that readers read
// without a lock needs, made n first failures cost O(n²).
//
// A reader that loaded the table before a change sees the nodes before
// it or after it, as it saw an older copy of a map before.
type nodeTable struct {
	seed  maphash.Seed
	slots []atomic.Pointer[tracked] // a power of two, at most half used
	gone  *tracked                  // the marker of a forgotten node's slot
	used  int                       // slots holding a node or gone; the writer's
	live  int                       // slots holding a node; the writer's
}

func newNodeTable(size int, seed maphash.Seed, gone *tracked) *nodeTable {
	return &nodeTable{seed: seed, slots: make([]atomic.Pointer[tracked], size), gone: gone}
}

// get returns the node of id, or nil. It takes no lock.
func (tb *nodeTable) get(id string) *tracked {
	_, t := tb.find(id)
	return t
}

// find returns the slot holding the node of id and the node, or nil.
func (tb *nodeTable) find(id string) (uint64, *tracked) {
	mask := uint64(len(tb.slots) - 1)
	for i := maphash.String(tb.seed, id) & mask; ; i = (i + 1) & mask {
		t := tb.slots[i].Load()
		if t == nil {
			return 0, nil
		}
		if t != tb.gone && t.id == id {
			return i, t
		}
	}
}

// each calls f with every node, until f returns false.
func (tb *nodeTable) each(f func(*tracked) bool) {
	for i := range tb.slots {
		if t := tb.slots[i].Load(); t != nil && t != tb.gone && !f(t) {
			return
		}
	}
}

// add returns the table with t added, tb itself unless it had to grow.
// t's ID must not be in it.
func (tb *nodeTable) add(t *tracked) *nodeTable {
	if 2*(tb.used+1) > len(tb.slots) {
		tb = tb.regrow(tb.live + 1)
	}
	mask := uint64(len(tb.slots) - 1)
	i := maphash.String(tb.seed, t.id) & mask
	for tb.slots[i].Load() != nil {
		i = (i + 1) & mask
	}
	tb.slots[i].Store(t)
	tb.used++
	tb.live++
	return tb
}

// regrow returns a new table of tb's nodes, at most a third full once it
// holds live nodes: twice the size when tb is half full of nodes, smaller
// when many were forgotten.
func (tb *nodeTable) regrow(live int) *nodeTable {
	size := 16
	for size < 3*live {
		size *= 2
	}
	next := newNodeTable(size, tb.seed, tb.gone)
	tb.each(func(t *tracked) bool {
		next = next.add(t)
		return true
	})
	return next
}

// remove forgets the node of id, if there is one, and reports whether
// there was.
func (tb *nodeTable) remove(id string) bool {
	i, t := tb.find(id)
	if t == nil {
		return false
	}
	tb.slots[i].Store(tb.gone)
	tb.live--
	return true
}

// shrunk returns a smaller table of tb's nodes when fewer than an eighth
// of its slots hold one, else tb. Growth at half used and shrinking at an
// eighth live are far enough apart that a node added and forgotten in
// turn does not copy the table each time.
func (tb *nodeTable) shrunk() *nodeTable {
	if len(tb.slots) <= 16 || 8*tb.live >= len(tb.slots) {
		return tb
	}
	return tb.regrow(tb.live)
}
