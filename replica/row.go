package replica

import (
	"slices"
	"strings"
)

// Row is a set of cells under one clustering key, with an optional row
// deletion. Cells are ordered by column name, each column at most once.
type Row struct {
	Clustering string
	Deletion   Deletion
	Cells      []Cell
}

// NewRow returns a row of the given cells, sorted by column name.
func NewRow(clustering string, cells ...Cell) Row {
	cs := slices.Clone(cells)
	slices.SortStableFunc(cs, func(a, b Cell) int { return strings.Compare(a.Column, b.Column) })
	return Row{Clustering: clustering, Cells: cs}
}

// WithDeletion returns r marked deleted by d.
func (r Row) WithDeletion(d Deletion) Row {
	r.Deletion = d
	return r
}

// IsEmpty reports whether the row has no cells and no deletion.
func (r Row) IsEmpty() bool { return len(r.Cells) == 0 && r.Deletion.IsLive() }

// Equal reports whether r and o hold the same data.
func (r Row) Equal(o Row) bool {
	return r.Clustering == o.Clustering && r.Deletion == o.Deletion &&
		slices.EqualFunc(r.Cells, o.Cells, Cell.Equal)
}

// Clone returns a deep copy of r.
func (r Row) Clone() Row {
	cs := make([]Cell, len(r.Cells))
	for i, c := range r.Cells {
		cs[i] = c.clone()
	}
	r.Cells = cs
	return r
}
