package replica

// scan walks a partition in a query's order as a replica's read does
// (Cassandra's ReadCommand.executeLocally): it counts tombstones as
// MetricRecording does and live rows as DataLimits does, and stops after
// the limit-th live row, or at the tombstone that exceeds the threshold.
// The whole definition of both counts is here, shared by Respond, LiveRows
// and Limit.
//
// A scan may also check, as it goes, that what it meets needs no purge at
// gcBefore (purger.needed) and holds nothing a deletion covers (coveredIn):
// then a replica answers in one pass over what its answer holds. It stops
// at the first element that does, before counting anything that the purge
// of that element would change.
type scan struct {
	now       int64
	limit     int // the most live rows; 0: no limit
	threshold int // the most tombstones; 0: no threshold
	// gc is the purge's gcBefore, when checkPurge asks the scan to stop at
	// the first element that needs purging.
	gc         int64
	checkPurge bool
	// counting asks for the count of live rows even without a limit.
	counting bool
	// partitionDeletion is the deletion of the partition being scanned.
	partitionDeletion Deletion
	// proj, when set, projects the rows as the scan reaches them; stop
	// then indexes its rows in scan order (see limited).
	proj *projector

	live        int  // live rows met
	tombstones  int  // tombstones met
	reached     bool // the limit stopped the scan at p.Rows[stop]
	stop        int
	overwhelmed bool // the tombstones exceeded the threshold
	needsPurge  bool // the scan stopped at an element that needs purging
}

// run scans p in q's order. p's rows are taken as they are: q's slices do
// not filter them.
func (s *scan) run(p *Partition, q Query) {
	if s.purgeable(p.Deletion) || s.checkPurge && coveredRange(p) {
		s.needsPurge = true
		return
	}
	s.partitionDeletion = p.Deletion
	staticLive := s.row(&p.Static, Deletion{})
	if s.stopped() {
		return
	}
	m := markers{rts: p.RangeTombstones, reversed: q.Reversed, partition: p.Deletion}
	rows, reversed := p.Rows, q.Reversed
	if s.proj != nil {
		rows, reversed = s.proj.rows, false // in scan order, projected as needed
	}
	for j := 0; ; j++ {
		if j == len(rows) {
			if s.proj == nil || !s.proj.more() {
				break
			}
			rows = s.proj.rows
		}
		i := j
		if reversed {
			i = len(rows) - 1 - j
		}
		r := &rows[i]
		covering := m.advance(r.Clustering, s)
		if s.stopped() {
			return
		}
		if s.row(r, covering) {
			s.live++
			if s.live == s.limit {
				s.reached, s.stop = true, i
				return
			}
		}
		if s.stopped() {
			return
		}
	}
	m.rest(s)
	// A partition with only static data shows as one row to a query with
	// no clustering restriction (DataLimits' countPartitionsWithOnlyStaticData).
	if staticLive && s.live == 0 && q.SelectsAllRows() {
		s.live = 1
	}
}

// limited returns p, scanned by s, cut after the row that reached the
// limit, if any (cutAt); with s.proj, p holds the rows it projected.
func (s *scan) limited(p Partition, reversed bool) Partition {
	stop := s.stop
	if s.proj != nil {
		p.Rows = s.proj.ascending()
		if reversed {
			stop = len(p.Rows) - 1 - stop
		}
	}
	if s.reached {
		p = p.cutAt(stop, reversed)
	}
	return p
}

// row counts r's tombstones and reports whether r is live, when the scan
// counts live rows or the tombstone count needs to know: a cell of it holds
// a value at s.now that no deletion covers, or its liveness is live and not
// deleted. covering is the deletion of the range tombstone covering r, if
// any.
//
// What counts is what MetricRecording meets in a reconciled row, from
// which reconciliation dropped whatever a deletion covers: each cell not
// live at s.now and not covered; and once, for a row with nothing live, no
// such cell and a deletion that nothing covers (a row or complex deletion,
// or liveness that has expired), as MetricRecording counts a row deletion.
func (s *scan) row(r *Row, covering Deletion) (live bool) {
	if s.checkPurge && s.rowChanges(r, covering) {
		s.needsPurge = true
		return false
	}
	dead := 0
	cds := r.ComplexDeletions
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.IsLive(s.now) {
			continue
		}
		if s.checkPurge && s.purger().deadCellNeeded(c) {
			s.needsPurge = true
			return false
		}
		if s.partitionDeletion.max(covering).max(r.Deletion).max(complexDeletion(&cds, c.Column)).Deletes(c.Timestamp) {
			continue // covered: not in the reconciled row
		}
		dead++
		if !s.tombstone() {
			return false
		}
	}
	if !s.countLive() && (dead > 0 || !mayHoldDeletion(r)) {
		return false // neither the count of live rows nor of tombstones needs to know
	}
	outer := s.partitionDeletion.max(covering)
	live = isLive(r, outer.max(r.Deletion), s.now)
	if !live && dead == 0 && hasDeletion(r, outer, s.now) {
		s.tombstone()
	}
	return live
}

// rowChanges reports whether the answer's purge changes r beyond its dead
// cells, which the scan checks one by one: its head needs purging, or a
// deletion covers something in it.
func (s *scan) rowChanges(r *Row, covering Deletion) bool {
	return s.purger().headNeeded(r) ||
		mayCover(s.partitionDeletion, covering, r) && coveredIn(r, s.partitionDeletion.max(covering))
}

// countLive reports whether the scan counts live rows: for a limit, or
// for LiveRows.
func (s *scan) countLive() bool { return s.limit > 0 || s.counting }

// isLive reports whether r has a cell live at now that neither active nor
// its column's complex deletion covers, or live liveness that active does
// not cover.
func isLive(r *Row, active Deletion, now int64) bool {
	if r.Liveness.IsLive(now) && !active.Deletes(r.Liveness.Timestamp) {
		return true
	}
	cds := r.ComplexDeletions
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.IsLive(now) && !active.max(complexDeletion(&cds, c.Column)).Deletes(c.Timestamp) {
			return true
		}
	}
	return false
}

// mayHoldDeletion reports whether r holds a deletion that hasDeletion may
// count, before it looks at what covers r.
func mayHoldDeletion(r *Row) bool {
	return !r.Deletion.IsLive() || len(r.ComplexDeletions) > 0 || r.Liveness.IsExpiring()
}

// hasDeletion reports whether r holds, at now, a deletion that outer does
// not cover: a row deletion, a complex deletion, or an expired liveness.
func hasDeletion(r *Row, outer Deletion, now int64) bool {
	if !r.Deletion.IsLive() && !outer.shadows(r.Deletion) {
		return true
	}
	active := outer.max(r.Deletion)
	for _, cd := range r.ComplexDeletions {
		if !active.shadows(cd.Deletion) {
			return true
		}
	}
	return r.Liveness.IsExpiring() && !r.Liveness.IsLive(now) && !active.Deletes(r.Liveness.Timestamp)
}

// tombstone counts one tombstone and reports whether the scan may go on.
func (s *scan) tombstone() bool {
	s.tombstones++
	s.overwhelmed = s.threshold > 0 && s.tombstones > s.threshold
	return !s.overwhelmed
}

// stopped reports whether the scan stopped before the end.
func (s *scan) stopped() bool { return s.overwhelmed || s.needsPurge }

// coveredRange reports whether p's deletion covers one of its range
// tombstones.
func coveredRange(p *Partition) bool {
	if p.Deletion.IsLive() {
		return false
	}
	for i := range p.RangeTombstones {
		if p.Deletion.shadows(p.RangeTombstones[i].Deletion) {
			return true
		}
	}
	return false
}

// purgeable reports, when the scan checks for purges, whether d needs
// purging, and then stops the scan.
func (s *scan) purgeable(d Deletion) bool {
	s.needsPurge = s.needsPurge || s.checkPurge && s.purger().purgeable(d)
	return s.needsPurge
}

func (s *scan) purger() purger { return purger{now: s.now, gc: s.gc} }
