package repair

import (
	"unsafe"

	"github.com/readpath/readpath/replica"
)

var cdBytes = int(unsafe.Sizeof(replica.ComplexDeletion{}))

// DiffRoom is memory that a Resolver builds a version's diff in (see
// ResolveValidInRooms) and that the next diff built in it reuses: a caller
// that knows when the replica a diff was sent to is done with it (its
// write returned, having copied what it keeps) builds its next diffs
// there, where each diff was new memory. A diff built in a room is valid
// until the room is reset or used again; its range tombstones, which few
// diffs hold, are new memory. Unlike a partition built in Blocks, it is no
// version for the call that uses its room again: the merge keeps the
// versions' value bytes, which that call's diff in the room writes over,
// changing the merge it returns. The zero DiffRoom is empty and ready. A
// DiffRoom is not safe for concurrent use: give each goroutine its own.
type DiffRoom struct {
	rows   []replica.Row
	cells  []replica.Cell
	values []byte
	cds    []replica.ComplexDeletion
	// used is how many rows, cells and complex deletions the last diff
	// took, for Reset.
	used [3]int
}

// Reset drops what the last diff built in the room refers to (the merge's
// clustering and column names, which may hold whole replica answers
// alive), keeping its memory.
func (d *DiffRoom) Reset() {
	clear(d.rows[:d.used[0]])
	clear(d.cells[:d.used[1]])
	clear(d.cds[:d.used[2]])
	d.used = [3]int{}
}

// Size returns the bytes of memory the room holds.
func (d *DiffRoom) Size() int {
	return cap(d.rows)*rowBytes + cap(d.cells)*cellBytes + cap(d.values) + cap(d.cds)*cdBytes
}

// take returns the room's memory for a diff of rows rows, cells cells,
// values value bytes and cds complex deletions, growing what is short.
func (d *DiffRoom) take(rows, cells, values, cds int) ([]replica.Row, space) {
	d.Reset()
	d.rows = room(d.rows, rows)
	d.cells = room(d.cells, cells)
	d.values = room(d.values, values)
	d.cds = room(d.cds, cds)
	d.used = [3]int{rows, cells, cds}
	return d.rows[:0:rows], space{cells: d.cells[:cells], values: d.values[:values], cds: d.cds[:cds]}
}

// room returns s with capacity for n, its old contents kept or not.
func room[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:cap(s)]
}
