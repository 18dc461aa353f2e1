package repair

import "github.com/readpath/readpath/replica"

// rangeSweep walks the range tombstone lists of several partitions together
// in clustering order, cutting at every bound of every list, so that
// between two cuts each list is inside one of its range tombstones or
// outside all of them. Each list must be ordered and without overlaps, as
// Validate checks; then a sweep is one pass over all of them.
type rangeSweep struct {
	lists  [][]replica.RangeTombstone // what is left of each list
	inside []bool                     // per list, whether lists[i][0] is open
	// covering holds, per list, the deletion over the last segment next
	// returned, or the zero Deletion outside every range.
	covering []replica.Deletion
	at       replica.Bound // where the next segment starts
}

func newRangeSweep(lists [][]replica.RangeTombstone) *rangeSweep {
	return &rangeSweep{
		lists:    lists,
		inside:   make([]bool, len(lists)),
		covering: make([]replica.Deletion, len(lists)),
	}
}

// next returns the next segment of the line that some list covers, from
// start (included) to end (excluded), with each list's deletion over it in
// s.covering. It reports false when every list is exhausted.
func (s *rangeSweep) next() (start, end replica.Bound, ok bool) {
	for {
		cut, found := s.nextCut()
		if !found {
			return start, end, false
		}
		start = s.at
		covered := false
		for i := range s.lists {
			s.covering[i] = replica.Deletion{}
			if s.inside[i] {
				s.covering[i], covered = s.lists[i][0].Deletion, true
			}
		}
		s.pass(cut)
		if covered && start.Compare(cut) < 0 {
			return start, cut, true
		}
	}
}

// nextCut returns the first bound ahead: the end of an open range or the
// start of the next.
func (s *rangeSweep) nextCut() (cut replica.Bound, found bool) {
	for i, l := range s.lists {
		if len(l) == 0 {
			continue
		}
		b := l[0].Start
		if s.inside[i] {
			b = l[0].End
		}
		if !found || b.Compare(cut) < 0 {
			cut, found = b, true
		}
	}
	return cut, found
}

// pass moves the sweep to cut: ranges ending there close and ranges
// starting there open.
func (s *rangeSweep) pass(cut replica.Bound) {
	for i := range s.lists {
		for len(s.lists[i]) > 0 {
			rt := &s.lists[i][0]
			if s.inside[i] && rt.End.Compare(cut) == 0 {
				s.inside[i], s.lists[i] = false, s.lists[i][1:]
			} else if !s.inside[i] && rt.Start.Compare(cut) == 0 {
				s.inside[i] = true
			} else {
				break
			}
		}
	}
	s.at = cut
}

// mergeRanges adds to b the union of the versions' range tombstones: over
// each stretch of clustering keys, the strongest deletion of any version,
// where it supersedes the partition deletion (which already covers
// everything else).
func (b *builder) mergeRanges(versions []replica.Partition) {
	var lists [][]replica.RangeTombstone
	for i := range versions {
		if rts := versions[i].RangeTombstones; len(rts) > 0 {
			lists = append(lists, rts)
		}
	}
	if lists == nil {
		return
	}
	s := newRangeSweep(lists)
	for start, end, ok := s.next(); ok; start, end, ok = s.next() {
		var d replica.Deletion
		for _, c := range s.covering {
			d = strongest(d, c)
		}
		if d.Supersedes(b.out.Deletion) {
			b.addRange(start, end, d)
		}
	}
}

// diffRanges adds to b the pieces of merged's range tombstones that version
// lacks: where neither its range tombstones nor its partition deletion are
// at least as strong.
func (b *builder) diffRanges(merged, version *replica.Partition) {
	if len(merged.RangeTombstones) == 0 {
		return
	}
	s := newRangeSweep([][]replica.RangeTombstone{merged.RangeTombstones, version.RangeTombstones})
	for start, end, ok := s.next(); ok; start, end, ok = s.next() {
		if d := s.covering[0]; d.Supersedes(strongest(s.covering[1], version.Deletion)) {
			b.addRange(start, end, d)
		}
	}
}

// strongest returns whichever of a and b supersedes the other.
func strongest(a, b replica.Deletion) replica.Deletion {
	if b.Supersedes(a) {
		return b
	}
	return a
}

// coverCursor walks a canonical range tombstone list alongside rows in
// clustering order.
type coverCursor struct{ rts []replica.RangeTombstone }

// at returns the deletion of the range tombstone covering the row at
// clustering, or the zero Deletion.
func (c *coverCursor) at(clustering string) replica.Deletion {
	if len(c.rts) == 0 {
		return replica.Deletion{}
	}
	row := replica.StartAt(clustering)
	for len(c.rts) > 0 && c.rts[0].End.Compare(row) <= 0 {
		c.rts = c.rts[1:]
	}
	if len(c.rts) > 0 && c.rts[0].Covers(clustering) {
		return c.rts[0].Deletion
	}
	return replica.Deletion{}
}
