package replica

import "slices"

// Project returns p with only the named columns, in the static row and in
// each row: their cells and complex deletions. Rows left with nothing (no
// cell, liveness, row or complex deletion) are dropped; the partition
// deletion and range tombstones, which belong to no column, stay. A nil
// columns keeps every column and returns p itself. The result shares cell
// values with p. Project visits every row; Command.Respond projects each
// row only when its scan reaches it, and answers as Project would.
func (p Partition) Project(columns []string) Partition {
	if columns == nil {
		return p
	}
	out := Partition{Key: p.Key, Deletion: p.Deletion, RangeTombstones: p.RangeTombstones}
	columns = slices.Sorted(slices.Values(columns)) // searched for every cell; the caller's list is left as it was
	out.Static = p.Static.project(columns)
	for i := range p.Rows {
		if r := p.Rows[i].project(columns); !r.IsEmpty() {
			out.Rows = append(out.Rows, r)
		}
	}
	return out
}

// project returns r with only the named columns, sorted: a binary search
// for each cell, where a scan of the list cost a comparison a column (10,000
// columns of a 10,000-cell row took 184 ms).
func (r *Row) project(columns []string) Row {
	out := Row{Clustering: r.Clustering, Liveness: r.Liveness, Deletion: r.Deletion}
	for _, cd := range r.ComplexDeletions {
		if _, ok := slices.BinarySearch(columns, cd.Column); ok {
			out.ComplexDeletions = append(out.ComplexDeletions, cd)
		}
	}
	for _, c := range r.Cells {
		if _, ok := slices.BinarySearch(columns, c.Column); ok {
			out.Cells = append(out.Cells, c)
		}
	}
	return out
}
