package repair

import (
	"unsafe"

	"github.com/readpath/readpath/replica"
)

const (
	rowBytes  = int(unsafe.Sizeof(replica.Row{}))
	cellBytes = int(unsafe.Sizeof(replica.Cell{}))
)

// Blocks is memory that a Resolver builds merged partitions in, handed
// from merge to merge: a caller done with a partition ResolveIn, MergeIn
// or their Valid forms built passes the same Blocks to its next call, which
// builds in them instead of allocating (a merge's rows and cells are most
// of what it allocates, and fresh memory is also the slowest to write).
// The zero Blocks holds none.
//
// A partition built in Blocks must not be used once they are passed to
// another call, which overwrites its rows and cells, except as one of that
// call's versions, whole, cut (Limit, Restrict) or answered from
// (replica.Command.Respond): a fold, acc = ResolveIn(&b, acc, v), builds
// each merge in new memory and leaves b as it was. Blocks hold the memory
// of the last merge only, so that they keep nothing of earlier partitions
// alive.
// Blocks are not safe for concurrent use.
type Blocks struct {
	rows  []replica.Row
	cells []replica.Cell
}

// Size returns the bytes of memory b holds, to decide whether to keep it.
func (b *Blocks) Size() int {
	return cap(b.rows)*rowBytes + cap(b.cells)*cellBytes
}

// maxSlack bounds how much larger than a merge needs a block may be for
// the merge to use it: the partition built there keeps all of it alive,
// and a caller may keep a small result long.
const maxSlack = 4

// reusable returns block emptied if it can hold need elements, and is not
// more than maxSlack times larger than need (or than minBlock); else nil.
func reusable[T any](block []T, need int) []T {
	if need == 0 || cap(block) < need || cap(block) > maxSlack*max(need, minBlock) {
		return nil
	}
	return block[:0]
}

// unless returns b, or nil when b holds one of versions (see holdsAny):
// that merge is built in new memory, and b is left as it was.
func (b *Blocks) unless(versions []replica.Partition) *Blocks {
	if b == nil || b.holdsAny(versions) {
		return nil
	}
	return b
}

// holdsAny reports whether a version's rows, or the cells of its static
// row or of any of its rows, lie in b's blocks: a partition an earlier
// merge built in b, or a part of one, given back as a version (a fold, acc
// = ResolveIn(&b, acc, v)), which a merge in b would overwrite as it reads
// it. A part may hold the merge's cells in rows of new memory, and only
// some of them: Restrict to several slices copies the rows, not their
// cells; an answer to a Command naming Columns (Command.Respond) holds the
// cells of a row whose selected columns are one run where they were, a
// copy of those of another. So every row is looked at, not the first and
// last only (found by review: row "b" of such an answer came out holding
// row "a"'s cell). A version whose rows lie in b is caught at its first.
func (b *Blocks) holdsAny(versions []replica.Partition) bool {
	for i := range versions {
		v := &versions[i]
		if len(v.Rows) > 0 && within(&v.Rows[0], b.rows) {
			return true
		}
		if cap(b.cells) == 0 {
			continue
		}
		if len(v.Static.Cells) > 0 && within(&v.Static.Cells[0], b.cells) {
			return true
		}
		for j := range v.Rows {
			if cells := v.Rows[j].Cells; len(cells) > 0 && within(&cells[0], b.cells) {
				return true
			}
		}
	}
	return false
}

// within reports whether p points into block's array.
func within[T any](p *T, block []T) bool {
	if cap(block) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	at := uintptr(unsafe.Pointer(p))
	return at >= start && at < start+uintptr(cap(block))*unsafe.Sizeof(*p)
}

// keep makes b hold the blocks a merge built its rows and cells in (its
// cells' last block) and no others: a block the merge did not take, and
// what it left unwritten of one it reused, would keep an earlier
// partition's strings and values alive as long as the new partition.
func (b *Blocks) keep(rows []replica.Row, cells []replica.Cell) {
	b.rows, b.cells = keepBlock(b.rows, rows), keepBlock(b.cells, cells)
}

// keepBlock returns used, the block a merge built in, emptied, or nil if
// it built in none; it clears used's unwritten tail when used is old, the
// block an earlier merge wrote.
func keepBlock[T any](old, used []T) []T {
	if cap(used) == 0 {
		return nil
	}
	if cap(used) == cap(old) && &used[:1][0] == &old[:1][0] {
		clear(used[len(used):cap(used)])
	}
	return used[:0:cap(used)]
}
