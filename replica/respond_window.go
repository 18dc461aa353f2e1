package replica

import "sort"

// answerWindow answers a limited command from the first rows of stored in
// its query's order, twice the limit, then four times as many each time
// until the limit is reached in them, and reports false if it never is
// before they are all of stored's: answer then reads the whole. A limited
// read so restricts, clips and rewrites (canonicalRanges) only the rows
// and range tombstones up to about twice what it returns, where the whole
// costs a pass over all the range tombstones and slices after its page,
// and a copy of what they select: a page of 10 rows at the start of
// 16,000 rows with range tombstones between them allocated 2 MB. A read
// that never reaches its limit scans at most 4/3 of its rows again in the
// windows it tried; without range tombstones or several slices, where the
// whole costs only what its scan meets, there is no window.
//
// The answer is answerAll's: its scan stops at the limit-th live row, so
// it met only what lies before that row in the window, as in the whole;
// and what the window leaves out, or answers differently (the end of a
// range tombstone not joined to its neighbour past the window), lies after
// that row, where the cut at the limit clips it away. A scan the
// tombstone threshold stopped in the window does not settle the answer:
// the window's scan ends by meeting the markers past its last row, which
// the whole's may never meet, having reached the limit first.
func (cmd Command) answerWindow(stored Partition) (Partition, scan, bool) {
	q := cmd.Query
	if q.Limit <= 0 || len(stored.RangeTombstones) == 0 && len(q.Slices) <= 1 {
		return Partition{}, scan{}, false // the whole costs only the rows it scans
	}
	lo, hi := queryRows(stored.Rows, q.Slices)
	if q.Limit >= (hi-lo)/2 {
		return Partition{}, scan{}, false
	}
	for k := 2 * q.Limit; k < hi-lo; k *= 4 {
		p, s := cmd.answerAll(window(stored, lo, hi, k, q.Reversed))
		if s.reached {
			return p, s, true
		}
	}
	return Partition{}, scan{}, false
}

// queryRows returns the span rows[lo:hi] from the start of the first of
// slices to the end of the last, which holds every row they select.
func queryRows(rows []Row, slices []Slice) (lo, hi int) {
	if len(slices) == 0 {
		return 0, len(rows) // nil: every row; empty: none, and Restrict is cheap
	}
	first, last := slices[0], slices[len(slices)-1]
	lo, _ = rowSpan(rows, Slice{Start: first.Start, End: Top()})
	_, hi = rowSpan(rows, Slice{Start: Bottom(), End: last.End})
	return lo, max(lo, hi)
}

// window returns stored with the first k rows of rows[lo:hi] in scan
// order, those before them, and the range tombstones that reach them:
// what a scan in that order meets up to the k-th.
func window(stored Partition, lo, hi, k int, reversed bool) Partition {
	rts := stored.RangeTombstones
	if reversed {
		edge := before(stored.Rows[hi-k].Clustering)
		i := sort.Search(len(rts), func(i int) bool { return rts[i].End.position().compare(edge) > 0 })
		stored.Rows, stored.RangeTombstones = stored.Rows[hi-k:len(stored.Rows):len(stored.Rows)], rts[i:len(rts):len(rts)]
		return stored
	}
	edge := after(stored.Rows[lo+k-1].Clustering)
	i := sort.Search(len(rts), func(i int) bool { return rts[i].Start.position().compare(edge) >= 0 })
	stored.Rows, stored.RangeTombstones = stored.Rows[:lo+k:lo+k], rts[:i:i]
	return stored
}
