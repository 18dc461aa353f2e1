package replica

// scan walks a partition in a query's order as a replica's read does
// (Cassandra's ReadCommand.executeLocally): it counts tombstones as
// MetricRecording does and live rows as DataLimits does, and stops after
// the limit-th live row, or at the tombstone that exceeds the threshold.
// The whole definition of both counts is here, shared by Respond, LiveRows
// and Limit.
type scan struct {
	now       int64
	limit     int // the most live rows; 0: no limit
	threshold int // the most tombstones; 0: no threshold

	live        int  // live rows met
	tombstones  int  // tombstones met
	reached     bool // the limit stopped the scan at p.Rows[stop]
	stop        int
	overwhelmed bool // the tombstones exceeded the threshold
}

// run scans p in q's order. p's rows are taken as they are: q's slices do
// not filter them.
func (s *scan) run(p *Partition, q Query) {
	staticLive := s.row(&p.Static, p.Deletion)
	if s.overwhelmed {
		return
	}
	m := markers{rts: p.RangeTombstones, reversed: q.Reversed}
	for j := range p.Rows {
		i := j
		if q.Reversed {
			i = len(p.Rows) - 1 - j
		}
		r := &p.Rows[i]
		covering := m.advance(r.Clustering, s)
		if s.overwhelmed {
			return
		}
		if s.row(r, p.Deletion.max(covering)) {
			s.live++
			if s.live == s.limit {
				s.reached, s.stop = true, i
				return
			}
		}
		if s.overwhelmed {
			return
		}
	}
	m.rest(s)
	// A partition with only static data shows as one row to a query of
	// every row (DataLimits' countPartitionsWithOnlyStaticData).
	if staticLive && s.live == 0 && q.SelectsAllRows() {
		s.live = 1
	}
}

// row counts r's tombstones, and reports whether r is live: a cell of it
// holds a value at s.now that no deletion covers, or its liveness is live
// and not deleted. active is the deletion covering r from outside it. Each
// cell not live counts one tombstone; a row with nothing live, no liveness
// live and no such cell counts one if it holds a deletion (a row or complex
// deletion, or liveness that has expired), as MetricRecording counts a row
// deletion once.
func (s *scan) row(r *Row, active Deletion) (live bool) {
	active = active.max(r.Deletion)
	dead := 0
	cds := r.ComplexDeletions
	for i := range r.Cells {
		c := &r.Cells[i]
		switch {
		case !c.IsLive(s.now):
			dead++
			if !s.tombstone() {
				return false
			}
		case !live:
			live = !active.max(complexDeletion(&cds, c.Column)).Deletes(c.Timestamp)
		}
	}
	if r.Liveness.IsLive(s.now) && !active.Deletes(r.Liveness.Timestamp) {
		return true
	}
	if !live && dead == 0 && hasDeletion(r, s.now) {
		s.tombstone()
	}
	return live
}

// hasDeletion reports whether r holds a deletion at now besides dead cells:
// a row deletion, a complex deletion, or an expired liveness.
func hasDeletion(r *Row, now int64) bool {
	return !r.Deletion.IsLive() || len(r.ComplexDeletions) > 0 || (r.Liveness.IsExpiring() && !r.Liveness.IsLive(now))
}

// tombstone counts one tombstone and reports whether the scan may go on.
func (s *scan) tombstone() bool {
	s.tombstones++
	s.overwhelmed = s.threshold > 0 && s.tombstones > s.threshold
	return !s.overwhelmed
}
