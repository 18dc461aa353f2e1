package replica

import (
	"slices"
	"strings"
)

// Partition is the unit a read returns: everything stored under one
// partition key. That is an optional partition deletion, the static row
// (cells shared by every row of the partition), range tombstones ordered by
// start and not overlapping, and rows ordered by clustering key.
//
// A Partition is a plain value; sharing one between goroutines is safe as
// long as nobody modifies it. Use Clone before changing a partition you did
// not build.
type Partition struct {
	Key      string
	Deletion Deletion
	// Static is the static row; the zero Row when there is none.
	Static          Row
	RangeTombstones []RangeTombstone
	Rows            []Row
}

// NewPartition returns a partition of the given rows, sorted by clustering
// key. Check it with Validate if the rows may repeat a key. It sorts a copy
// of rows, which the caller keeps; the rows' cells are shared, not copied.
func NewPartition(key string, rows ...Row) Partition {
	rs := slices.Clone(rows)
	slices.SortStableFunc(rs, func(a, b Row) int { return strings.Compare(a.Clustering, b.Clustering) })
	return Partition{Key: key, Rows: rs}
}

// WithDeletion returns p marked deleted by d.
func (p Partition) WithDeletion(d Deletion) Partition {
	p.Deletion = d
	return p
}

// WithStatic returns p with a static row of the given cells, sorted by
// column name and path, in a copy of cells. The result shares p's rows.
func (p Partition) WithStatic(cells ...Cell) Partition {
	p.Static = NewRow("", cells...)
	return p
}

// IsEmpty reports whether p holds nothing at all, as a partition a replica
// does not hold reads.
func (p Partition) IsEmpty() bool {
	return len(p.Rows) == 0 && len(p.RangeTombstones) == 0 && p.Deletion.IsLive() && p.Static.IsEmpty()
}

// Equal reports whether p and o hold the same data; slice capacity and nil
// versus empty slices do not matter.
func (p Partition) Equal(o Partition) bool {
	return p.Key == o.Key && p.Deletion == o.Deletion && p.Static.Equal(o.Static) &&
		slices.Equal(p.RangeTombstones, o.RangeTombstones) && slices.EqualFunc(p.Rows, o.Rows, Row.Equal)
}

// Clone returns a deep copy of p that shares no memory with it.
func (p Partition) Clone() Partition {
	if p.hasStatic() {
		p.Static = p.Static.Clone()
	} else {
		// An empty static row may still hold arrays with room to append.
		p.Static.Cells, p.Static.ComplexDeletions = withoutArray(p.Static.Cells), withoutArray(p.Static.ComplexDeletions)
	}
	if p.RangeTombstones != nil {
		p.RangeTombstones = slices.Clone(p.RangeTombstones)
	}
	rs := make([]Row, len(p.Rows))
	for i, r := range p.Rows {
		rs[i] = r.Clone()
	}
	p.Rows = rs
	return p
}

// withoutArray returns the empty s without its array; nil stays nil.
func withoutArray[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return []T{}
}

// hasStatic reports whether p.Static is anything but the zero Row.
func (p *Partition) hasStatic() bool { return p.Static.Clustering != "" || !p.Static.IsEmpty() }
