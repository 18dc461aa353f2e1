package replica

import (
	"slices"
	"strings"
)

// Row is a set of cells under one clustering key, with optional primary-key
// liveness, an optional row deletion and complex deletions. Cells are
// ordered by column name, then path, each (column, path) at most once;
// complex deletions by column name, each column at most once.
//
// A partition's static row (Partition.Static) is a Row too, with no
// clustering key, no liveness and no row deletion.
//
// A Row is a plain value; sharing one between goroutines is safe as long as
// nobody modifies it.
type Row struct {
	Clustering string
	Liveness   Liveness
	Deletion   Deletion
	// ComplexDeletions delete complex columns' cells up to a timestamp.
	ComplexDeletions []ComplexDeletion
	Cells            []Cell
}

// NewRow returns a row of the given cells, sorted by column name and path,
// in a copy of cells, which the caller keeps; values are shared, not copied.
func NewRow(clustering string, cells ...Cell) Row {
	cs := slices.Clone(cells)
	slices.SortStableFunc(cs, func(a, b Cell) int { return compareCellKeys(&a, &b) })
	return Row{Clustering: clustering, Cells: cs}
}

// WithDeletion returns r marked deleted by d.
func (r Row) WithDeletion(d Deletion) Row {
	r.Deletion = d
	return r
}

// WithLiveness returns r with primary-key liveness l.
func (r Row) WithLiveness(l Liveness) Row {
	r.Liveness = l
	return r
}

// WithComplexDeletion returns r with column's complex deletion set to d, in
// column order; the zero Deletion, "not deleted", leaves column without
// one. The result does not share its complex deletions with r.
func (r Row) WithComplexDeletion(column string, d Deletion) Row {
	cds := slices.Clone(r.ComplexDeletions)
	i, found := slices.BinarySearchFunc(cds, column, func(cd ComplexDeletion, c string) int {
		return strings.Compare(cd.Column, c)
	})
	switch {
	case d.IsLive():
		if found {
			cds = slices.Delete(cds, i, i+1)
		}
	case found:
		cds[i].Deletion = d
	default:
		cds = slices.Insert(cds, i, ComplexDeletion{Column: column, Deletion: d})
	}
	r.ComplexDeletions = cds
	return r
}

// IsEmpty reports whether the row holds nothing: no cells, no liveness, no
// row deletion and no complex deletion.
func (r Row) IsEmpty() bool {
	return len(r.Cells) == 0 && len(r.ComplexDeletions) == 0 && r.Liveness.IsEmpty() && r.Deletion.IsLive()
}

// Equal reports whether r and o hold the same data.
func (r Row) Equal(o Row) bool {
	return r.Clustering == o.Clustering && r.Liveness == o.Liveness && r.Deletion == o.Deletion &&
		slices.Equal(r.ComplexDeletions, o.ComplexDeletions) && slices.EqualFunc(r.Cells, o.Cells, Cell.Equal)
}

// Clone returns a deep copy of r.
func (r Row) Clone() Row {
	if r.ComplexDeletions != nil {
		r.ComplexDeletions = slices.Clone(r.ComplexDeletions)
	}
	cs := make([]Cell, len(r.Cells))
	for i, c := range r.Cells {
		cs[i] = c.clone()
	}
	r.Cells = cs
	return r
}

// complexDeletion returns the deletion of column among cds, ordered by
// column, moving cds past the columns before it.
func complexDeletion(cds *[]ComplexDeletion, column string) Deletion {
	for len(*cds) > 0 && (*cds)[0].Column < column {
		*cds = (*cds)[1:]
	}
	if len(*cds) > 0 && (*cds)[0].Column == column {
		return (*cds)[0].Deletion
	}
	return Deletion{}
}
