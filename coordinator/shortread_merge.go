package coordinator

import (
	"slices"
	"sort"
	"sync"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// mergeInto returns repair.Merge(into, c), reusing into's arrays: into
// must be a merge's result that nothing else holds, and is spent. Unless
// c deletes more of the partition (then any row may change), only c's
// span changes: the rows of into in it and the range tombstones of into
// that overlap it are merged with c, and the result takes their place.
// So merging a continuation of k rows after the n of into costs O(k + log
// n), and a few moves of what follows c, where into holds any, instead of
// O(n + k). Two touching range tombstones with one deletion are one in
// Merge's canonical list, so the pieces at the edges of the span are
// joined as Merge joins them.
//
// rooms keeps room before into's rows and range tombstones, which a
// reversed query's continuations land in front of.
func mergeInto(into, c replica.Partition, rooms *partRooms) (replica.Partition, error) {
	if c.Key != into.Key || c.Deletion.Supersedes(into.Deletion) {
		return mergeWhole(into, c, rooms)
	}
	r0, r1, t0, t1 := len(into.Rows), len(into.Rows), len(into.RangeTombstones), len(into.RangeTombstones)
	if lo, hi, ok := span(c); ok {
		r0, r1 = rowsIn(into.Rows, lo, hi)
		t0, t1 = rangesIn(into.RangeTombstones, lo, hi)
	}
	w, err := mergeTwo(replica.Partition{Key: into.Key, Deletion: into.Deletion, Static: into.Static,
		Rows: into.Rows[r0:r1], RangeTombstones: into.RangeTombstones[t0:t1]}, c)
	if err != nil {
		return replica.Partition{}, err
	}
	into.Static = w.Static
	into.Rows = rooms.rows.replace(into.Rows, r0, r1, w.Rows...)
	rts := rooms.rts.replace(into.RangeTombstones, t0, t1, w.RangeTombstones...)
	rts = joinAt(rts, t0+len(w.RangeTombstones))
	into.RangeTombstones = joinAt(rts, t0)
	return into, nil
}

// mergeWhole is repair.Merge of two, the shape of mergeInto, so that either
// can merge an answer (see shortReads).
func mergeWhole(a, b replica.Partition, _ *partRooms) (replica.Partition, error) {
	return mergeTwo(a, b)
}

// mergeTwo is repair.Merge of a and b, answers the workers validated and
// merges of them, by a pooled Resolver, its cells keeping their values:
// short-read protection merges once a round, and Merge checked every row
// again, copied every value and made its scratch and its list of versions
// anew each time (four of a round's eight allocations).
func mergeTwo(a, b replica.Partition) (replica.Partition, error) {
	p := pairResolvers.Get().(*pairResolver)
	defer pairResolvers.Put(p)
	p.pair = [2]replica.Partition{a, b}
	defer func() { p.pair = [2]replica.Partition{} }() // keeps nothing alive in the pool
	return p.MergeValidIn(nil, p.pair[:]...)
}

// pairResolver is a Resolver with room for the two versions mergeTwo
// merges.
type pairResolver struct {
	repair.Resolver
	pair [2]replica.Partition
}

var pairResolvers = sync.Pool{New: func() any { return new(pairResolver) }}

// partRooms are the rooms mergeInto keeps before a partition's lists.
type partRooms struct {
	rows frontRoom[replica.Row]
	rts  frontRoom[replica.RangeTombstone]
}

// span returns the positions from where c's first row or range tombstone
// starts to where its last ends; false if it holds neither.
func span(c replica.Partition) (lo, hi replica.Bound, ok bool) {
	rows, rts := c.Rows, c.RangeTombstones
	switch {
	case len(rows) == 0 && len(rts) == 0:
		return lo, hi, false
	case len(rts) == 0:
		return replica.StartAt(rows[0].Clustering), replica.EndAt(rows[len(rows)-1].Clustering), true
	case len(rows) == 0:
		return rts[0].Start, rts[len(rts)-1].End, true
	}
	lo, hi = replica.StartAt(rows[0].Clustering), replica.EndAt(rows[len(rows)-1].Clustering)
	if rts[0].Start.Compare(lo) < 0 {
		lo = rts[0].Start
	}
	if rts[len(rts)-1].End.Compare(hi) > 0 {
		hi = rts[len(rts)-1].End
	}
	return lo, hi, true
}

// rowsIn returns the rows between lo and hi: rows[r0:r1].
func rowsIn(rows []replica.Row, lo, hi replica.Bound) (r0, r1 int) {
	r0 = sort.Search(len(rows), func(i int) bool { return lo.Compare(replica.StartAt(rows[i].Clustering)) <= 0 })
	r1 = r0 + sort.Search(len(rows)-r0, func(i int) bool { return replica.EndAt(rows[r0+i].Clustering).Compare(hi) > 0 })
	return r0, r1
}

// rangesIn returns the range tombstones that overlap lo to hi, more than
// touching it: rts[t0:t1].
func rangesIn(rts []replica.RangeTombstone, lo, hi replica.Bound) (t0, t1 int) {
	t0 = sort.Search(len(rts), func(i int) bool { return rts[i].End.Compare(lo) > 0 })
	t1 = t0 + sort.Search(len(rts)-t0, func(i int) bool { return rts[t0+i].Start.Compare(hi) >= 0 })
	return t0, t1
}

// joinAt joins rts[j-1] and rts[j] if they touch with one deletion.
func joinAt(rts []replica.RangeTombstone, j int) []replica.RangeTombstone {
	if j <= 0 || j >= len(rts) || rts[j-1].Deletion != rts[j].Deletion || rts[j-1].End.Compare(rts[j].Start) != 0 {
		return rts
	}
	rts[j-1].End = rts[j].End
	return slices.Delete(rts, j, j+1)
}
