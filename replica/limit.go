package replica

import "sort"

// LiveRows returns how many rows of p a client reading q at nowInSec sees,
// as Cassandra's DataLimits counts them: a row counts when a cell of it
// holds a value at nowInSec that no deletion covers, or its liveness is
// live and not deleted (Visible shows the same rows). A partition with no
// such row but live static cells counts as one row when q has no
// clustering restriction (SelectsAllRows), as CQL then shows it; a slice
// from StartAt("") restricts. q's slices and limit do not
// filter p's rows: restrict p first (Restrict) if it may hold others.
//
// Column selection counts through the data: a row whose live cells are all
// in columns a read did not select is no longer in its answer
// (Partition.Project), so it does not count, where Cassandra, which reads
// every column to decide whether a row exists, would count it.
func (p Partition) LiveRows(q Query, nowInSec int64) int {
	s := scan{now: nowInSec, counting: true}
	s.run(&p, q)
	return s.live
}

// Limit returns p cut after its q.Limit-th live row (LiveRows) in q's
// order, as a replica's answer to q ends: the rows after that row dropped,
// and range tombstones clipped to end at it (to start at it, reversed), so
// that the result covers exactly what lies from its first row in q's order
// to that row. It reports true when p holds at least q.Limit live rows:
// the result then ends at the q.Limit-th, its LastClustering, and rows may
// follow it that p, itself a limited answer, does not show. With no limit,
// or fewer live rows, it returns p itself and false, as it does when only
// static data made the count. As in LiveRows, q's slices do not filter
// p's rows: restrict p first (Restrict) if it may hold others.
//
// Limit does not modify p; the result shares memory with it, and allocates
// only to clip a range tombstone. A part of p's rows or range tombstones is
// capped at its length, so that appending to it copies it rather than
// writing over what follows it in p.
func (p Partition) Limit(q Query, nowInSec int64) (Partition, bool) {
	if q.Limit <= 0 {
		return p, false
	}
	s := scan{now: nowInSec, limit: q.Limit}
	s.run(&p, q)
	if !s.reached {
		return p, false
	}
	return p.cutAt(s.stop, q.Reversed), true
}

// LastClustering returns the clustering key of p's last row in q's order:
// its greatest, or its least when q is Reversed. It reports false when p
// has no row. Of a limited answer (Limit) it is where a continuation
// starts: q.After(last).
func (p Partition) LastClustering(q Query) (string, bool) {
	switch {
	case len(p.Rows) == 0:
		return "", false
	case q.Reversed:
		return p.Rows[0].Clustering, true
	}
	return p.Rows[len(p.Rows)-1].Clustering, true
}

// cutAt returns p cut after its row at index stop in scan order: rows after
// it dropped, range tombstones clipped to end at it (start at it, when
// reversed), as Cassandra's RTBoundCloser closes a range tombstone that a
// limit stopped in.
func (p Partition) cutAt(stop int, reversed bool) Partition {
	last := p.Rows[stop].Clustering
	if reversed {
		p.Rows = p.Rows[stop:len(p.Rows):len(p.Rows)]
		p.RangeTombstones = rangesFrom(p.RangeTombstones, before(last))
	} else {
		p.Rows = p.Rows[: stop+1 : stop+1]
		p.RangeTombstones = rangesUpTo(p.RangeTombstones, after(last))
	}
	return p
}

// rangesUpTo returns the parts of rts before the position cut.
func rangesUpTo(rts []RangeTombstone, cut position) []RangeTombstone {
	n := sort.Search(len(rts), func(i int) bool { return rts[i].Start.position().compare(cut) >= 0 })
	if n == 0 {
		return nil
	}
	if rts[n-1].End.position().compare(cut) <= 0 {
		return rts[:n:n]
	}
	out := append([]RangeTombstone(nil), rts[:n]...)
	out[n-1].End = EndAt(cut.key)
	return out
}

// rangesFrom returns the parts of rts after the position cut.
func rangesFrom(rts []RangeTombstone, cut position) []RangeTombstone {
	i := sort.Search(len(rts), func(i int) bool { return rts[i].End.position().compare(cut) > 0 })
	if i == len(rts) {
		return nil
	}
	if rts[i].Start.position().compare(cut) >= 0 {
		return rts[i:len(rts):len(rts)]
	}
	out := append([]RangeTombstone(nil), rts[i:]...)
	out[0].Start = StartAt(cut.key).AsStart()
	return out
}
