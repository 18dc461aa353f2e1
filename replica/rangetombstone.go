package replica

import "slices"

// RangeTombstone deletes the rows of a range of clustering keys, between
// Start and End, written at or before Deletion's timestamp: Cassandra's
// range deletion (DELETE ... WHERE ck > 'a' AND ck <= 'c'). It deletes
// rows, row liveness, row and complex deletions and cells at or before its
// timestamp, but not the static row. A RangeTombstone is a plain value, safe
// for concurrent use.
//
// Clustering keys are opaque byte strings here: an engine with several
// clustering columns encodes them into one key that orders as they do.
// Cassandra's deletion of a clustering prefix (WHERE c1 = 'x', any c2) is
// then the range from StartAt(p) to EndBefore(the least key after every key
// that starts with p), where p is the encoded prefix.
type RangeTombstone struct {
	Start, End Bound
	Deletion   Deletion
}

// NewRangeTombstone returns the deletion of the rows from start to end by d.
func NewRangeTombstone(start, end Bound, d Deletion) RangeTombstone {
	return RangeTombstone{Start: start, End: end, Deletion: d}
}

// Covers reports whether the row at clustering lies in rt's range.
func (rt RangeTombstone) Covers(clustering string) bool {
	return rt.Start.position().compare(before(clustering)) <= 0 &&
		(position{key: clustering, after: true}).compare(rt.End.position()) <= 0
}

// isEmpty reports whether rt's range holds no clustering key.
func (rt RangeTombstone) isEmpty() bool {
	return rt.Start.position().compare(rt.End.position()) >= 0
}

// WithRangeTombstones returns p with its range tombstones set to rts, sorted
// by start, in a copy of rts. The result shares p's rows. Overlapping ranges
// fail Validate: build each in a partition of its own and combine them with
// repair.Merge, which splits them.
func (p Partition) WithRangeTombstones(rts ...RangeTombstone) Partition {
	sorted := slices.Clone(rts)
	slices.SortStableFunc(sorted, func(a, b RangeTombstone) int { return a.Start.Compare(b.Start) })
	p.RangeTombstones = sorted
	return p
}

// rangeCursor walks a partition's range tombstones alongside its rows, which
// come in the same order, to tell each row the deletion covering it.
type rangeCursor struct{ rts []RangeTombstone }

// covering returns the deletion of the range tombstone covering the row at
// clustering, or the zero Deletion. Rows must be visited in order.
func (c *rangeCursor) covering(clustering string) Deletion {
	at := before(clustering)
	for len(c.rts) > 0 && c.rts[0].End.position().compare(at) <= 0 {
		c.rts = c.rts[1:]
	}
	if len(c.rts) > 0 && c.rts[0].Covers(clustering) {
		return c.rts[0].Deletion
	}
	return Deletion{}
}

// canonicalRanges returns rts in the form repair.Merge writes them: every
// bound in canonical form (Bound.AsStart, AsEnd), and touching ranges of
// one deletion joined. Two replicas that hold the same deletions written
// differently (StartAt("") and Bottom, or a range and its two halves) then
// answer and digest alike. It returns rts itself when it is so already.
func canonicalRanges(rts []RangeTombstone) []RangeTombstone {
	if rangesCanonical(rts) {
		return rts
	}
	out := make([]RangeTombstone, 0, len(rts))
	for _, rt := range rts {
		if n := len(out); n > 0 && joins(&out[n-1], &rt) {
			out[n-1].End = rt.End.AsEnd()
			continue
		}
		out = append(out, NewRangeTombstone(rt.Start.AsStart(), rt.End.AsEnd(), rt.Deletion))
	}
	return out
}

func rangesCanonical(rts []RangeTombstone) bool {
	for i := range rts {
		rt := &rts[i]
		if rt.Start != rt.Start.AsStart() || rt.End != rt.End.AsEnd() || i > 0 && joins(&rts[i-1], rt) {
			return false
		}
	}
	return true
}

// joins reports whether next continues prev: the same deletion, from where
// prev ends.
func joins(prev, next *RangeTombstone) bool {
	return prev.Deletion == next.Deletion && prev.End.Compare(next.Start) == 0
}
