package replica

import "slices"

// View is what a client reading a partition sees at one moment: only live
// data, with everything expired, deleted or shadowed gone, and no
// tombstones. It is the result a CQL SELECT * of the partition returns, row
// by row: each row shows Static and its own Cells.
//
// A View is a plain value, safe to share as long as nobody modifies it.
type View struct {
	Key string
	// Static holds the live static cells, which CQL shows on every row.
	Static []Cell
	// Rows are the rows that exist, in clustering order: those with a live
	// cell or a live primary-key liveness. When none exists but a static
	// cell is live, Rows holds one row of no clustering with Static set, as
	// CQL shows a partition holding only static data.
	Rows []ViewRow
}

// ViewRow is one row of a View, a plain value like it, safe to share as
// long as nobody modifies it.
type ViewRow struct {
	Clustering string
	// Static marks the row that stands for a partition holding only static
	// data: it has no clustering key and no cells of its own.
	Static bool
	// Cells are the row's live cells, in column and path order. A row kept
	// alive by its liveness alone has none.
	Cells []Cell
}

// Visible returns the view of p that a client reading at nowInSec (seconds
// since the epoch) sees, as Cassandra filters a reconciled partition for a
// client: a cell shows if it holds a value at nowInSec (Cell.IsLive) and no
// deletion covering it (partition, range, row or complex deletion) is at or
// above its timestamp; a row shows if a cell of it does or its liveness is
// live and not deleted. A partition deletion removes the static cells too.
// Range tombstones do not reach the static row.
//
// Visible does not modify p; the view shares cell values with it.
func (p Partition) Visible(nowInSec int64) View {
	v := View{Key: p.Key}
	// One array holds every row's cells, each row's part capped at its
	// length (appending to it copies it), and one the rows: a slice of
	// cells grown row by row was two allocations a row, 208 for 100 rows.
	n := 0
	for i := range p.Rows {
		n += len(p.Rows[i].Cells)
	}
	var cells []Cell
	if n > 0 {
		cells = make([]Cell, 0, n)
	}
	v.Static = liveCells(nil, &p.Static, p.Deletion.max(p.Static.Deletion), nowInSec)
	ranges := rangeCursor{rts: p.RangeTombstones}
	for i := range p.Rows {
		r := &p.Rows[i]
		active := p.Deletion.max(ranges.covering(r.Clustering)).max(r.Deletion)
		from := len(cells)
		cells = liveCells(cells, r, active, nowInSec)
		if len(cells) > from || (r.Liveness.IsLive(nowInSec) && !active.Deletes(r.Liveness.Timestamp)) {
			if v.Rows == nil {
				v.Rows = make([]ViewRow, 0, len(p.Rows)-i)
			}
			var own []Cell
			if len(cells) > from {
				own = cells[from:len(cells):len(cells)]
			}
			v.Rows = append(v.Rows, ViewRow{Clustering: r.Clustering, Cells: own})
		}
	}
	if len(v.Rows) == 0 && len(v.Static) > 0 {
		v.Rows = []ViewRow{{Static: true}}
	}
	return v
}

// liveCells appends to live the cells of r live at now under the deletion
// active and r's complex deletions.
func liveCells(live []Cell, r *Row, active Deletion, now int64) []Cell {
	cds := r.ComplexDeletions
	for _, c := range r.Cells {
		if c.IsLive(now) && !active.max(complexDeletion(&cds, c.Column)).Deletes(c.Timestamp) {
			live = append(live, c)
		}
	}
	return live
}

// IsEmpty reports whether the view shows no row.
func (v View) IsEmpty() bool { return len(v.Rows) == 0 }

// Equal reports whether v and o show the same data.
func (v View) Equal(o View) bool {
	return v.Key == o.Key && slices.EqualFunc(v.Static, o.Static, Cell.Equal) &&
		slices.EqualFunc(v.Rows, o.Rows, ViewRow.Equal)
}

// Equal reports whether r and o show the same data.
func (r ViewRow) Equal(o ViewRow) bool {
	return r.Clustering == o.Clustering && r.Static == o.Static && slices.EqualFunc(r.Cells, o.Cells, Cell.Equal)
}
