package replica

import "sort"

// A Slice is a range of clustering keys, from Start to End: Start is a
// start bound (Bottom, StartAt, StartAfter) and End an end bound (EndAt,
// EndBefore, Top), as Cassandra's Slice. A row belongs to it when its
// clustering key lies between them. A Slice is a plain value, safe for
// concurrent use.
type Slice struct{ Start, End Bound }

// AllRows returns the slice of every clustering key, Bottom to Top.
func AllRows() Slice { return Slice{Start: Bottom(), End: Top()} }

// Contains reports whether the row at clustering lies in s.
func (s Slice) Contains(clustering string) bool {
	return s.Start.position().compare(before(clustering)) <= 0 && after(clustering).compare(s.End.position()) <= 0
}

// isEmpty reports whether s holds no clustering key.
func (s Slice) isEmpty() bool { return s.Start.position().compare(s.End.position()) >= 0 }

// String returns the slice as a range, as ["a", "c").
func (s Slice) String() string { return s.Start.String() + ", " + s.End.String() }

// A Query says which part of a partition a read wants: the rows of some
// slices of clustering keys, in ascending or descending order, up to a
// number of live rows. The zero Query reads the whole partition.
//
// A Query is a plain value; sharing one between goroutines is safe as long
// as nobody modifies its Slices.
type Query struct {
	// Slices are the ranges of clustering keys to read, ordered by start,
	// not overlapping (they may touch) and none empty. Nil reads every row;
	// a non-nil empty list reads no row (Cassandra's Slices.NONE), as After
	// returns past the last slice (a transport must keep nil and empty
	// apart: see the package doc). NormalizeSlices makes a valid list of any
	// list but nil, which it makes one of no row.
	Slices []Slice
	// Reversed reads rows in descending clustering order: the limit counts
	// from the last row. Answers hold their rows in ascending order anyway.
	Reversed bool
	// Limit is the most live rows to read, counted as Cassandra's DataLimits
	// counts them (Partition.LiveRows); 0 reads every row.
	Limit int
}

// Contains reports whether the row at clustering lies in one of q's slices.
// q must be valid (Validate).
func (q Query) Contains(clustering string) bool {
	if q.Slices == nil {
		return true
	}
	at := before(clustering)
	i := sort.Search(len(q.Slices), func(i int) bool { return q.Slices[i].End.position().compare(at) > 0 })
	return i < len(q.Slices) && q.Slices[i].Contains(clustering)
}

// FirstRowOutside returns the clustering key of the first of rows, in
// ascending order as a valid partition holds them, that q's slices do not
// select, and true; or false when they select every one. It walks rows and
// slices together, once: a coordinator checks each answer with it, since a
// replica (or a transport that lost the query's slices) could otherwise
// hand a client rows it never asked for. q must be valid (Validate).
func (q Query) FirstRowOutside(rows []Row) (string, bool) {
	if q.Slices == nil {
		return "", false
	}
	i := 0
	for r := range rows {
		c := rows[r].Clustering
		at := before(c)
		for i < len(q.Slices) && q.Slices[i].End.position().compare(at) <= 0 {
			i++ // that slice ends before c
		}
		if i == len(q.Slices) || q.Slices[i].Start.position().compare(at) > 0 {
			return c, true
		}
	}
	return "", false
}

// SelectsAllRows reports whether q has no clustering restriction: Slices
// is nil or the one slice AllRows. Only such a query counts a partition
// with live static cells and no live row as one row (Partition.LiveRows),
// and shows that row to a client. Any other slice restricts, even one that
// selects every row, as StartAt("") to Top does: CQL's ck >= "" where the
// empty value is a real one (Cassandra's ClusteringIndexSliceFilter.
// selectsAllPartition: one slice, with neither bound).
func (q Query) SelectsAllRows() bool {
	return q.Slices == nil || len(q.Slices) == 1 && q.Slices[0] == AllRows()
}

// After returns q restricted to the rows strictly after clustering in q's
// order (strictly before it when q is Reversed): what a continuation of a
// read that ended at the row at clustering asks, whether the next page or
// more rows for short-read protection. It keeps q's order and limit. Its
// slices share no memory with q's; past q's last slice it reads no row.
// q must be valid (Validate).
func (q Query) After(clustering string) Query {
	slices := q.Slices
	if slices == nil {
		slices = []Slice{AllRows()}
	}
	if q.Reversed {
		q.Slices = slicesBefore(slices, before(clustering))
	} else {
		q.Slices = slicesAfter(slices, after(clustering))
	}
	return q
}

// slicesAfter returns a copy of the parts of slices from cut on. It finds
// the first by binary search and copies only those left: a continuation
// of a page of an IN list is as long as what the list has left, not the
// whole list.
func slicesAfter(slices []Slice, cut position) []Slice {
	i := sort.Search(len(slices), func(i int) bool { return slices[i].End.position().compare(cut) > 0 })
	out := append(make([]Slice, 0, len(slices)-i), slices[i:]...)
	if len(out) > 0 && out[0].Start.position().compare(cut) < 0 {
		out[0].Start = StartAfter(cut.key)
	}
	return out
}

// slicesBefore returns a copy of the parts of slices up to cut.
func slicesBefore(slices []Slice, cut position) []Slice {
	n := sort.Search(len(slices), func(i int) bool { return slices[i].Start.position().compare(cut) >= 0 })
	out := append(make([]Slice, 0, n), slices[:n]...)
	if n > 0 && cut.compare(out[n-1].End.position()) < 0 {
		out[n-1].End = EndBefore(cut.key).AsEnd()
	}
	return out
}

// after returns the position just after clustering, where a row at
// clustering ends.
func after(clustering string) position { return position{key: clustering, after: true} }
