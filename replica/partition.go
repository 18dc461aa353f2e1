package replica

import (
	"slices"
	"strings"
)

// Partition is the unit a read returns: every row under one partition key,
// ordered by clustering key, with an optional partition deletion.
//
// A Partition is a plain value; sharing one between goroutines is safe as
// long as nobody modifies it. Use Clone before changing a partition you did
// not build.
type Partition struct {
	Key      string
	Deletion Deletion
	Rows     []Row
}

// NewPartition returns a partition of the given rows, sorted by clustering
// key. Check it with Validate if the rows may repeat a key.
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

// IsEmpty reports whether p has no rows and no deletion, as a partition a
// replica does not hold reads.
func (p Partition) IsEmpty() bool { return len(p.Rows) == 0 && p.Deletion.IsLive() }

// Equal reports whether p and o hold the same data; slice capacity and nil
// versus empty slices do not matter.
func (p Partition) Equal(o Partition) bool {
	return p.Key == o.Key && p.Deletion == o.Deletion && slices.EqualFunc(p.Rows, o.Rows, Row.Equal)
}

// Clone returns a deep copy of p that shares no memory with it.
func (p Partition) Clone() Partition {
	rs := make([]Row, len(p.Rows))
	for i, r := range p.Rows {
		rs[i] = r.Clone()
	}
	p.Rows = rs
	return p
}

// Project returns p with only the named columns in each row; rows left
// with no cells and no deletion are dropped. A nil columns keeps every
// column. The result shares cell values with p.
func (p Partition) Project(columns []string) Partition {
	if columns == nil {
		return p
	}
	out := Partition{Key: p.Key, Deletion: p.Deletion}
	for _, r := range p.Rows {
		cells := slices.DeleteFunc(slices.Clone(r.Cells), func(c Cell) bool { return !slices.Contains(columns, c.Column) })
		if nr := (Row{Clustering: r.Clustering, Deletion: r.Deletion, Cells: cells}); !nr.IsEmpty() {
			out.Rows = append(out.Rows, nr)
		}
	}
	return out
}
