package ring

import (
	"slices"
	"sync"
)

// A walk under NetworkTopology goes on until every datacenter has its
// replicas, and can meet many tokens it may not take: a datacenter whose
// second rack holds one node, at factor 3, waits for that node once its
// one rack repeat is spent, and every range's walk crosses about the ring
// to find it; a datacenter of three nodes beside large ones waits for all
// three. Placing the ranges of 1,000 such nodes then cost 47 times what
// 100 did. So a walk that has met skipAfter tokens in a row without
// taking one jumps to the next token whose rack can still give a replica,
// found by binary search in each such rack's token positions. Whether a
// rack can give one only ever changes from yes to no during a walk, so the
// tokens jumped over could not have been taken; the walk takes the same
// nodes and meets the same count of tokens.

// skipAfter is how many tokens in a row a walk takes none of before it
// jumps: enough that walks of a balanced ring never do.
const skipAfter = 64

// rackTokens holds, per (datacenter, rack) pair of a ring, the positions
// of its tokens in ascending order, and per datacenter its pairs.
type rackTokens struct {
	at    [][]int32 // per pair
	racks [][]int32 // per datacenter
}

// rackIndex is the ring's rackTokens, made at the first walk that needs it.
type rackIndex struct {
	once sync.Once
	idx  *rackTokens
}

func (r *Ring) rackTokens() *rackTokens {
	r.byRack.once.Do(func() {
		t := &rackTokens{at: make([][]int32, r.racks), racks: make([][]int32, len(r.dcInfo))}
		for i, o := range r.owners {
			k := r.rackOf[o]
			if len(t.at[k]) == 0 {
				d := r.nodeDC[o]
				t.racks[d] = append(t.racks[d], k)
			}
			t.at[k] = append(t.at[k], int32(i))
		}
		r.byRack.idx = t
	})
	return r.byRack.idx
}

// next returns the offset from start, from on, of the first token whose
// rack may still give the walk a replica, or len(tokens) if none does.
func (w *walker) next(start, from int) int {
	t, n := w.r.rackTokens(), len(w.r.owners)
	pos := (start + from) % n
	best := n
	for d, q := range w.fill {
		if q.left == 0 {
			continue
		}
		for _, k := range t.racks[d] {
			if w.seen[k] && q.repeats <= 0 {
				continue
			}
			at := t.at[k]
			j, _ := slices.BinarySearch(at, int32(pos))
			p := int(at[j%len(at)])
			best = min(best, from+(p-pos+n)%n)
		}
	}
	return best
}
