package replica

// markers walks a partition's range tombstones as a scan in some order
// meets their bounds (Cassandra's range tombstone markers): the bound that
// opens each in scan order (Start, or End when reversed), then the one that
// closes it. Where one closes at the position another opens, the two are
// one boundary marker, met once. A range tombstone that the partition
// deletion covers has no markers: reconciliation drops it.
type markers struct {
	rts      []RangeTombstone
	reversed bool
	// partition is the partition deletion: a range tombstone it covers is
	// not in the reconciled partition, and its bounds are not met.
	partition Deletion
	next      int      // range tombstones closed so far
	open      bool     // whether the next one is open
	closed    position // where the last one closed, if next > 0
	counted   bool     // whether the last one's closing marker counted
}

// advance meets the markers that come before the row at clustering,
// counting them into s, and returns the deletion of the range tombstone
// covering that row, or the zero Deletion. It stops early once s is
// overwhelmed.
func (m *markers) advance(clustering string, s *scan) Deletion {
	if m.next == len(m.rts) {
		return Deletion{}
	}
	at := before(clustering)
	if m.reversed {
		at = after(clustering)
	}
	for m.next < len(m.rts) {
		opening, closing := m.bounds()
		if !m.open {
			if !m.metBy(opening, at) || !m.meetOpening(opening, s) {
				return Deletion{}
			}
		}
		if !m.metBy(closing, at) {
			return m.current().Deletion
		}
		if !m.meetClosing(closing, s) {
			return Deletion{}
		}
	}
	return Deletion{}
}

// rest meets every marker not met yet.
func (m *markers) rest(s *scan) {
	for m.next < len(m.rts) {
		opening, closing := m.bounds()
		if !m.open && !m.meetOpening(opening, s) {
			return
		}
		if !m.meetClosing(closing, s) {
			return
		}
	}
}

// meetOpening opens the next range tombstone, counting its opening marker
// unless it is the boundary where the last one closed; it reports whether
// the scan may go on: not if the range tombstone needs purging, when the
// scan checks for that.
func (m *markers) meetOpening(opening position, s *scan) bool {
	m.open = true
	if s.purgeable(m.current().Deletion) {
		return false
	}
	if m.covered() || (m.next > 0 && m.counted && m.closed.compare(opening) == 0) {
		return true
	}
	return s.tombstone()
}

// meetClosing closes the open range tombstone, counting its closing marker;
// it reports whether the scan may go on.
func (m *markers) meetClosing(closing position, s *scan) bool {
	m.counted = !m.covered()
	m.open, m.closed = false, closing
	m.next++
	return !m.counted || s.tombstone()
}

// covered reports whether the partition deletion covers the next range
// tombstone.
func (m *markers) covered() bool { return m.partition.shadows(m.current().Deletion) }

// current returns the next range tombstone in scan order.
func (m *markers) current() *RangeTombstone {
	if m.reversed {
		return &m.rts[len(m.rts)-1-m.next]
	}
	return &m.rts[m.next]
}

// bounds returns where the next range tombstone opens and closes in scan
// order.
func (m *markers) bounds() (opening, closing position) {
	rt := m.current()
	if m.reversed {
		return rt.End.position(), rt.Start.position()
	}
	return rt.Start.position(), rt.End.position()
}

// metBy reports whether a scan meets the marker at position p before the
// row whose near edge, in scan order, is at.
func (m *markers) metBy(p, at position) bool {
	if m.reversed {
		return p.compare(at) >= 0
	}
	return p.compare(at) <= 0
}
