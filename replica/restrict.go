package replica

import "sort"

// Restrict returns p restricted to q's slices, with no limit: the rows in a
// slice, the range tombstones clipped to the slices, and the partition
// deletion and static row whatever the slices. It is what a read of q
// covers, so what repair may write back for it. q's order and limit do not
// matter; a nil Slices returns p itself.
//
// Clipped bounds take the canonical forms of Bound.AsStart and AsEnd, and
// the pieces of one range tombstone in touching slices are joined, so that
// restricting a canonical partition (as repair.Merge returns) gives a
// canonical one. Restrict finds each slice by binary search: rows and range
// tombstones outside the slices are not visited. q must be valid
// (Validate); Restrict does not modify p, and the result shares memory
// with it, capped as Limit's is.
func (p Partition) Restrict(q Query) Partition {
	if q.Slices == nil {
		return p
	}
	return Partition{Key: p.Key, Deletion: p.Deletion, Static: p.Static,
		RangeTombstones: restrictRanges(p.RangeTombstones, q.Slices),
		Rows:            restrictRows(p.Rows, q.Slices)}
}

// restrictRows returns the rows in slices: a part of rows when one slice
// holds them all.
func restrictRows(rows []Row, slices []Slice) []Row {
	spans := make([][2]int, 0, 4) // on the stack for up to four slices
	from, total := 0, 0
	for _, s := range slices {
		lo, hi := rowSpan(rows[from:], s)
		if lo < hi {
			spans = append(spans, [2]int{from + lo, from + hi})
			total += hi - lo
		}
		from += hi
	}
	switch len(spans) {
	case 0:
		return nil
	case 1:
		return rows[spans[0][0]:spans[0][1]:spans[0][1]]
	}
	out := make([]Row, 0, total)
	for _, sp := range spans {
		out = append(out, rows[sp[0]:sp[1]]...)
	}
	return out
}

// rowSpan returns the rows of s, rows[lo:hi].
func rowSpan(rows []Row, s Slice) (lo, hi int) {
	start, end := s.Start.position(), s.End.position()
	lo = sort.Search(len(rows), func(i int) bool { return start.compare(before(rows[i].Clustering)) <= 0 })
	hi = lo + sort.Search(len(rows)-lo, func(i int) bool { return after(rows[lo+i].Clustering).compare(end) > 0 })
	return lo, hi
}

// restrictRanges returns rts clipped to slices: a part of rts when no
// range tombstone needs clipping.
func restrictRanges(rts []RangeTombstone, slices []Slice) []RangeTombstone {
	c := clipper{rts: rts}
	from := 0
	for _, s := range slices {
		start := s.Start.position()
		from += sort.Search(len(rts)-from, func(i int) bool { return rts[from+i].End.position().compare(start) > 0 })
		for i := from; i < len(rts) && rts[i].Start.position().compare(s.End.position()) < 0; i++ {
			c.add(i, s)
		}
	}
	return c.result()
}

// clipper collects pieces of range tombstones, sharing the original list
// for as long as every piece is a whole range tombstone, and the next one.
type clipper struct {
	rts      []RangeTombstone
	first, n int              // while shared, the pieces are rts[first:first+n]
	out      []RangeTombstone // the pieces, once not shared
	last     int              // the index in rts of the last piece's range tombstone
}

// add adds the piece of rts[i] in s, if any.
func (c *clipper) add(i int, s Slice) {
	rt := c.rts[i]
	piece := rt
	if s.Start.Compare(rt.Start) > 0 {
		piece.Start = s.Start.AsStart()
	}
	if s.End.Compare(rt.End) < 0 {
		piece.End = s.End.AsEnd()
	}
	if piece.isEmpty() {
		return
	}
	if c.out == nil && piece == rt && (c.n == 0 || c.first+c.n == i) {
		if c.n == 0 {
			c.first = i
		}
		c.n, c.last = c.n+1, i
		return
	}
	c.unshare()
	if n := len(c.out); n > 0 && c.last == i && c.out[n-1].End.Compare(piece.Start) == 0 {
		c.out[n-1].End = piece.End // the same range, across touching slices
		return
	}
	c.out, c.last = append(c.out, piece), i
}

// unshare copies the shared pieces into c.out.
func (c *clipper) unshare() {
	if c.out != nil {
		return
	}
	c.out = make([]RangeTombstone, 0, c.n+2)
	if c.n > 0 {
		c.out = append(c.out, c.rts[c.first:c.first+c.n]...)
	}
}

func (c *clipper) result() []RangeTombstone {
	if c.out != nil {
		return c.out
	}
	if c.n == 0 {
		return nil
	}
	return c.rts[c.first : c.first+c.n : c.first+c.n]
}
