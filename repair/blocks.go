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
// from merge to merge: a caller done with a partition ResolveIn or
// ResolveValidIn built passes the same Blocks to its next call, which
// builds in them instead of allocating (a merge's rows and cells are most
// of what it allocates, and fresh memory is also the slowest to write).
// The zero Blocks holds none.
//
// A partition built in Blocks must not be used once they are passed to
// another call, which overwrites its rows and cells. Blocks are not safe
// for concurrent use.
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

// keep takes into b the blocks a merge built its rows and cells in (its
// cells' last block), and clears what the merge left unwritten of a block
// it reused: elements an earlier partition wrote there would keep that
// partition's strings and values alive.
func (b *Blocks) keep(rows []replica.Row, cells []replica.Cell) {
	if cap(rows) > 0 {
		if cap(rows) == cap(b.rows) && &rows[:1][0] == &b.rows[:1][0] {
			clear(rows[len(rows):cap(rows)])
		}
		b.rows = rows[:0:cap(rows)]
	}
	if cap(cells) > 0 {
		if cap(cells) == cap(b.cells) && &cells[:1][0] == &b.cells[:1][0] {
			clear(cells[len(cells):cap(cells)])
		}
		b.cells = cells[:0:cap(cells)]
	}
}
