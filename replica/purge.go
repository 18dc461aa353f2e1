package replica

// Purge returns p as a replica answers a read at nowInSec (seconds since
// the epoch) whose tombstones older than gcBefore may go: Cassandra 5.0's
// read-time purge (ReadCommand.withoutPurgeableTombstones, with
// AbstractCell.purge and DeletionPurger):
//
//   - an expiring cell has expired once nowInSec ≥ its expiry; it becomes a
//     tombstone with the same timestamp and the local deletion time expiry −
//     TTL (when it was written), which the next rule may drop at once;
//   - a tombstone of any kind (cell, row, range, complex, partition) whose
//     local deletion time is before gcBefore is dropped, whatever its
//     timestamp, and with it whatever it deleted;
//   - an expired row liveness is not a tombstone and is not converted: it
//     is dropped once its expiry is before gcBefore;
//   - a row left holding nothing is dropped.
//
// gcBefore is nowInSec − gc_grace_seconds: tombstones that every replica has
// had gc_grace_seconds to receive through repair. Zero nowInSec and gcBefore
// purge nothing. Purge is pure: it does not modify p, returns p itself when
// there is nothing to purge, and otherwise shares with p what it leaves as
// it was: each such row whole (its cells as p holds them), the list of rows
// (capped) when it changes none, the range tombstones when it keeps them
// all, and cell values. p must be valid (Validate); on an invalid partition
// Purge returns some partition rather than panicking.
func (p Partition) Purge(nowInSec, gcBefore int64) Partition {
	pg := purger{now: nowInSec, gc: gcBefore}
	if !pg.needed(&p) {
		return p
	}
	return pg.partition(&p)
}

// purger purges at one read time. With dropCovered it also drops what a
// deletion it keeps covers, as a replica's read of its sources does:
// Cassandra reconciles memtables and sstables as it reads them, so a
// replica's answer holds nothing a deletion covers, whether or not the
// replica has compacted it away.
type purger struct {
	now, gc     int64
	dropCovered bool
	// arena, when set, is where the rows it rebuilds take their cells
	// from (see rows).
	arena *cellArena
}

// cellArena hands out the cells of the rows a purge rebuilds from a few
// arrays, each twice the size of the one before and capped at the cells of
// the rows left: a run of rows of expired cells, as a time series with TTLs
// holds, costs O(log n) allocations, not one a row, and a lone changed row
// no more than its own cells, not room for every row after it.
type cellArena struct {
	free []Cell // the current array's cells not yet handed out
	next int    // the size of the next array: 0 before the first
	left int    // the cells of the rows not yet purged, the current one's included
}

// room returns room for n cells, n ≤ left, with length 0 and capacity n.
func (a *cellArena) room(n int) []Cell {
	if len(a.free) < n {
		size := min(max(a.next, n), a.left)
		a.free = make([]Cell, size)
		a.next = 2 * size
	}
	return a.free[:0:n]
}

// used takes the first k cells of the room handed out from the arena.
func (a *cellArena) used(k int) { a.free = a.free[k:] }

// covers returns the deletion d, which the purge keeps, as what drops the
// data it covers: d with dropCovered, nothing without.
func (pg purger) covers(d Deletion) Deletion {
	if pg.dropCovered {
		return d
	}
	return Deletion{}
}

// mayCover reports whether anything could cover data of r: a deletion of
// its partition, its range, itself or a complex column. Most rows have
// none, and this is cheaper than coveredIn.
func mayCover(partition, covering Deletion, r *Row) bool {
	return !partition.IsLive() || !covering.IsLive() || !r.Deletion.IsLive() || len(r.ComplexDeletions) > 0
}

// coveredIn reports whether r holds something that outer (the deletions of
// its partition and range), its row deletion or a complex deletion of it
// covers: a row or complex deletion no newer than what covers it, liveness
// or a cell written no later. Only dropCovered drops such things.
func coveredIn(r *Row, outer Deletion) bool {
	active := outer.max(r.Deletion)
	if !r.Deletion.IsLive() && outer.shadows(r.Deletion) ||
		!r.Liveness.IsEmpty() && active.Deletes(r.Liveness.Timestamp) {
		return true
	}
	for _, cd := range r.ComplexDeletions {
		if active.shadows(cd.Deletion) {
			return true
		}
	}
	cds := r.ComplexDeletions
	for i := range r.Cells {
		c := &r.Cells[i]
		if active.max(complexDeletion(&cds, c.Column)).Deletes(c.Timestamp) {
			return true
		}
	}
	return false
}

func (pg purger) purgeable(d Deletion) bool { return !d.IsLive() && d.LocalDeletionTime < pg.gc }

// expiredGone reports whether l has expired and may be dropped.
func (pg purger) expiredGone(l Liveness) bool {
	return l.IsExpiring() && !l.IsLive(pg.now) && l.ExpiresAt < pg.gc
}

// needed reports whether purging p changes anything.
func (pg purger) needed(p *Partition) bool {
	if pg.purgeable(p.Deletion) || pg.rowNeeded(&p.Static) {
		return true
	}
	for i := range p.RangeTombstones {
		if pg.purgeable(p.RangeTombstones[i].Deletion) {
			return true
		}
	}
	for i := range p.Rows {
		if pg.rowNeeded(&p.Rows[i]) {
			return true
		}
	}
	return false
}

func (pg purger) rowNeeded(r *Row) bool {
	if pg.headNeeded(r) {
		return true
	}
	for i := range r.Cells {
		if c := &r.Cells[i]; !c.IsLive(pg.now) && pg.deadCellNeeded(c) {
			return true
		}
	}
	return false
}

// headNeeded reports whether purging r changes anything but its cells.
func (pg purger) headNeeded(r *Row) bool {
	if pg.purgeable(r.Deletion) || pg.expiredGone(r.Liveness) {
		return true
	}
	for _, cd := range r.ComplexDeletions {
		if pg.purgeable(cd.Deletion) {
			return true
		}
	}
	return false
}

// deadCellNeeded reports whether purging changes the cell c, not live at
// pg.now: it expired, or it is a tombstone older than gcBefore.
func (pg purger) deadCellNeeded(c *Cell) bool { return !c.Tombstone || c.LocalDeletionTime < pg.gc }

// partition purges p. gone is the strongest deletion over what is being
// walked that drops what it deleted: a purged one, or with dropCovered any.
func (pg purger) partition(p *Partition) Partition {
	out := Partition{Key: p.Key}
	var gone Deletion
	if pg.purgeable(p.Deletion) {
		gone = p.Deletion
	} else {
		out.Deletion = p.Deletion
		gone = pg.covers(p.Deletion)
	}
	out.Static = pg.purgedRow(&p.Static, gone)
	out.RangeTombstones = pg.rangeTombstones(p.RangeTombstones, gone)
	out.Rows = pg.rows(p, gone)
	return out
}

// rows returns p's rows purged under gone, the deletion over them all:
// p.Rows itself (capped) when it changes none of them. Each row's need is
// decided once, and the rows before the first it changes are copied at
// once.
func (pg purger) rows(p *Partition, gone Deletion) []Row {
	var out []Row
	ranges := rangeCursor{rts: p.RangeTombstones}
	var arena cellArena
	for i := range p.Rows {
		r := &p.Rows[i]
		rowGone := gone
		if d := ranges.covering(r.Clustering); pg.purgeable(d) {
			rowGone = rowGone.max(d)
		} else {
			rowGone = rowGone.max(pg.covers(d))
		}
		changes := pg.changes(r, rowGone)
		switch {
		case pg.arena == nil && !changes:
			continue
		case pg.arena == nil:
			// The first row it changes. The rows rebuilt from here on take
			// their cells from the arena: each cost an allocation otherwise.
			out = append(make([]Row, 0, len(p.Rows)), p.Rows[:i]...) // sized once: most rows stay
			for j := i; j < len(p.Rows); j++ {
				arena.left += len(p.Rows[j].Cells)
			}
			pg.arena = &arena
		}
		if !changes {
			out = append(out, *r)
		} else if pr := pg.row(r, rowGone); !pr.IsEmpty() {
			out = append(out, pr)
		}
		arena.left -= len(r.Cells)
	}
	if pg.arena == nil {
		return p.Rows[:len(p.Rows):len(p.Rows)]
	}
	return out
}

// rangeTombstones returns the range tombstones of rts that the purge
// keeps under gone: rts itself when it keeps them all.
func (pg purger) rangeTombstones(rts []RangeTombstone, gone Deletion) []RangeTombstone {
	var out []RangeTombstone
	for i, rt := range rts {
		if !pg.purgeable(rt.Deletion) && !gone.shadows(rt.Deletion) {
			if out != nil {
				out = append(out, rt)
			}
			continue
		}
		if out == nil {
			out = append(make([]RangeTombstone, 0, len(rts)-1), rts[:i]...)
		}
	}
	switch {
	case out == nil:
		return rts
	case len(out) == 0:
		return nil
	}
	return out
}

// purgedRow returns r purged under gone: r itself, sharing its cells, when
// the purge leaves it as it is (most rows, when one cell of a partition
// has expired), so that a purge allocates only for the rows it changes.
func (pg purger) purgedRow(r *Row, gone Deletion) Row {
	if !pg.changes(r, gone) {
		return *r
	}
	return pg.row(r, gone)
}

// changes reports whether purging r under gone changes it.
func (pg purger) changes(r *Row, gone Deletion) bool {
	return pg.rowNeeded(r) || pg.dropsCovered(r, gone)
}

// dropsCovered reports whether the purge may drop something of r that a
// deletion covers: gone, or with dropCovered r's own deletions, which
// most rows do not have (then coveredIn need not walk the cells).
func (pg purger) dropsCovered(r *Row, gone Deletion) bool {
	if gone.IsLive() && (!pg.dropCovered || r.Deletion.IsLive() && len(r.ComplexDeletions) == 0) {
		return false
	}
	return coveredIn(r, gone)
}

// row purges r, under gone, the deletion that drops what it deleted.
func (pg purger) row(r *Row, gone Deletion) Row {
	out := Row{Clustering: r.Clustering}
	switch {
	case gone.shadows(r.Deletion):
	case pg.purgeable(r.Deletion):
		gone = r.Deletion
	default:
		out.Deletion = r.Deletion
		gone = gone.max(pg.covers(r.Deletion))
	}
	if !gone.Deletes(r.Liveness.Timestamp) && !pg.expiredGone(r.Liveness) {
		out.Liveness = r.Liveness
	}
	for _, cd := range r.ComplexDeletions {
		if !gone.shadows(cd.Deletion) && !pg.purgeable(cd.Deletion) {
			out.ComplexDeletions = append(out.ComplexDeletions, cd)
		}
	}
	out.Cells = pg.cells(r, gone)
	return out
}

// cells purges r's cells under gone, and the complex deletions of r that
// drop what they deleted.
func (pg purger) cells(r *Row, gone Deletion) []Cell {
	var out []Cell
	switch {
	case len(r.Cells) == 0:
	case pg.arena != nil: // room for the row's cells, which it cannot outgrow
		out = pg.arena.room(len(r.Cells))
	default: // sized once: appending grew it five times for ten cells
		out = make([]Cell, 0, len(r.Cells))
	}
	cds := r.ComplexDeletions
	for _, c := range r.Cells {
		columnGone := gone
		if cd := complexDeletion(&cds, c.Column); pg.purgeable(cd) {
			columnGone = columnGone.max(cd)
		} else {
			columnGone = columnGone.max(pg.covers(cd))
		}
		if columnGone.Deletes(c.Timestamp) {
			continue
		}
		if pc, keep := pg.cell(c); keep {
			out = append(out, pc)
		}
	}
	if pg.arena != nil {
		// Capped, so that a caller appending to one row's cells copies
		// them rather than overwrite the next row's.
		pg.arena.used(len(out))
		out = out[:len(out):len(out)]
	}
	return out
}

// cell purges c: an expired cell becomes the tombstone of its write, and a
// tombstone older than gcBefore goes.
func (pg purger) cell(c Cell) (Cell, bool) {
	if c.IsLive(pg.now) {
		return c, true
	}
	if !c.Tombstone {
		c = Cell{Column: c.Column, Path: c.Path, Timestamp: c.Timestamp,
			LocalDeletionTime: c.LocalDeletionTime - int64(c.TTL), Tombstone: true}
	}
	return c, c.LocalDeletionTime >= pg.gc
}
