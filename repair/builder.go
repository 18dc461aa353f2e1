package repair

import "github.com/readpath/readpath/replica"

// builder assembles a partition row by row, copying every cell value into
// its own arena, unless it shares values, so that the result shares no
// memory with its sources. Strings are shared: they are immutable.
type builder struct {
	out    replica.Partition
	cells  arena[replica.Cell]
	values arena[byte]
	cds    []replica.ComplexDeletion // the row being built's complex deletions
	// shareValues keeps the sources' values in the cells instead of
	// copies (a Resolver's merge).
	shareValues bool
}

// addCell appends a copy of *c to the row being built, with a copy of its
// value unless b shares values.
func (b *builder) addCell(c *replica.Cell) {
	value := c.Value
	if value != nil && !b.shareValues {
		value = b.values.copyOf(value)
	}
	setCell(b.cells.next(), c, value)
}

// setCell sets dst to a copy of c holding value. It writes field by field,
// not *dst = *c: while the collector marks, a whole-struct copy goes through
// the runtime's bulk write barrier, a tenth of a large merge's profile, and
// a copied value would then be written twice.
func setCell(dst, c *replica.Cell, value []byte) {
	dst.Column, dst.Path, dst.Value = c.Column, c.Path, value
	dst.Timestamp, dst.LocalDeletionTime, dst.TTL, dst.Tombstone = c.Timestamp, c.LocalDeletionTime, c.TTL, c.Tombstone
}

// row closes the row being built and returns it; it is empty if it holds
// nothing.
func (b *builder) row(clustering string, l replica.Liveness, d replica.Deletion) replica.Row {
	r := replica.Row{Clustering: clustering, Liveness: l, Deletion: d, Cells: b.cells.seal()}
	if len(r.Cells) == 0 {
		r.Cells = nil
	}
	if len(b.cds) > 0 {
		r.ComplexDeletions, b.cds = b.cds, nil
	}
	return r
}

// endRow closes the row being built and adds it to the partition, unless it
// holds nothing. It reports whether it added it.
func (b *builder) endRow(clustering string, l replica.Liveness, d replica.Deletion) bool {
	if b.cells.pending() == 0 && len(b.cds) == 0 && l.IsEmpty() && d.IsLive() {
		return false
	}
	b.out.Rows = append(b.out.Rows, b.row(clustering, l, d))
	return true
}

// endStatic closes the row being built as the static row.
func (b *builder) endStatic() {
	b.out.Static = b.row("", replica.Liveness{}, replica.Deletion{})
}

// addRange appends the range from start to end deleted by d, extending the
// last one instead if it ends where this one starts with the same deletion:
// a range tombstone list is canonical when no two neighbours could be one.
func (b *builder) addRange(start, end replica.Bound, d replica.Deletion) {
	rts := b.out.RangeTombstones
	if n := len(rts); n > 0 && rts[n-1].Deletion == d && rts[n-1].End.Compare(start) == 0 {
		rts[n-1].End = end.AsEnd()
		return
	}
	b.out.RangeTombstones = append(rts, replica.NewRangeTombstone(start.AsStart(), end.AsEnd(), d))
}
