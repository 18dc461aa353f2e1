package repair

import "github.com/readpath/readpath/replica"

// diff builds, from what version v lacks of merged, its diff:
// Diff(merged, v), in room, or if room is nil in memory of its own,
// allocated at its exact size.
func (l *lack) diff(merged, v *replica.Partition, room *DiffRoom) replica.Partition {
	b := builder{out: replica.Partition{Key: merged.Key}}
	if merged.Deletion.Supersedes(v.Deletion) {
		b.out.Deletion = merged.Deletion
	}
	b.diffRanges(merged, v)
	if len(l.rows) > 0 {
		l.addRows(&b.out, merged, room)
	}
	return b.out
}

// addRows adds to out the rows l notes, copied from merged, in room if it
// is not nil.
func (l *lack) addRows(out, merged *replica.Partition, room *DiffRoom) {
	rows := len(l.rows)
	if l.rows[0].row < 0 {
		rows-- // the first is the static row
	}
	var s space
	switch {
	case room != nil:
		out.Rows, s = room.take(rows, len(l.cells), l.valueBytes(merged), len(l.cds))
		if rows == 0 {
			out.Rows = nil
		}
	default:
		s = l.space(merged)
		if rows > 0 {
			out.Rows = make([]replica.Row, 0, rows)
		}
	}
	cells, cds := 0, 0
	for _, lr := range l.rows {
		src := rowOf(merged, lr.row)
		r := lr.head(src)
		r.Cells = s.copyCells(src.Cells, l.cells[cells:lr.cells])
		r.ComplexDeletions = s.copyComplexDeletions(src.ComplexDeletions, l.cds[cds:lr.cds])
		cells, cds = lr.cells, lr.cds
		if lr.row < 0 {
			out.Static = r
		} else {
			out.Rows = append(out.Rows, r)
		}
	}
}

// space allocates the memory of the cells, values and complex deletions l
// notes in merged.
func (l *lack) space(merged *replica.Partition) space {
	s := space{cells: make([]replica.Cell, len(l.cells)), values: make([]byte, l.valueBytes(merged))}
	if len(l.cds) > 0 {
		s.cds = make([]replica.ComplexDeletion, len(l.cds))
	}
	return s
}

// head returns a row of src's clustering, with the liveness and row
// deletion of src that lr lacks.
func (lr *lackRow) head(src *replica.Row) replica.Row {
	r := replica.Row{Clustering: src.Clustering}
	if lr.liveness {
		r.Liveness = src.Liveness
	}
	if lr.deletion {
		r.Deletion = src.Deletion
	}
	return r
}

// valueBytes returns how many value bytes the cells l notes hold in merged.
func (l *lack) valueBytes(merged *replica.Partition) int {
	n, from := 0, 0
	for _, lr := range l.rows {
		src := rowOf(merged, lr.row)
		for _, at := range l.cells[from:lr.cells] {
			n += len(src.Cells[at].Value)
		}
		from = lr.cells
	}
	return n
}

// rowOf returns merged's row at index i, or its static row for -1.
func rowOf(merged *replica.Partition, i int) *replica.Row {
	if i < 0 {
		return &merged.Static
	}
	return &merged.Rows[i]
}

// space is a diff's memory, allocated at its exact size and handed out
// front to back.
type space struct {
	cells  []replica.Cell
	values []byte
	cds    []replica.ComplexDeletion
}

// copyCells returns copies of the cells of src at positions at, values
// included, or nil for none.
func (s *space) copyCells(src []replica.Cell, at []int) []replica.Cell {
	if len(at) == 0 {
		return nil
	}
	out := s.cells[:len(at):len(at)]
	s.cells = s.cells[len(at):]
	for j, p := range at {
		value := src[p].Value
		if value != nil {
			n := len(value)
			value = s.values[:n:n]
			copy(value, src[p].Value)
			s.values = s.values[n:]
		}
		setCell(&out[j], &src[p], value)
	}
	return out
}

// copyComplexDeletions returns copies of the complex deletions of src at
// positions at, or nil for none.
func (s *space) copyComplexDeletions(src []replica.ComplexDeletion, at []int) []replica.ComplexDeletion {
	if len(at) == 0 {
		return nil
	}
	out := s.cds[:len(at):len(at)]
	s.cds = s.cds[len(at):]
	for j, p := range at {
		out[j] = src[p]
	}
	return out
}
