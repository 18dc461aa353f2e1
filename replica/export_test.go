package replica

// Hooks into the package for its external tests.

// PurgeEveryRow is the purge as it was before it shared the rows it leaves
// as they are: every row rebuilt by purger.row. It is the reference of
// TestPurgeSharesOnlyWhatItLeavesAlone.
func PurgeEveryRow(p Partition, nowInSec, gcBefore int64, dropCovered bool) Partition {
	pg := purger{now: nowInSec, gc: gcBefore, dropCovered: dropCovered}
	out := Partition{Key: p.Key}
	var gone Deletion
	if pg.purgeable(p.Deletion) {
		gone = p.Deletion
	} else {
		out.Deletion = p.Deletion
		gone = pg.covers(p.Deletion)
	}
	out.Static = pg.row(&p.Static, gone)
	for _, rt := range p.RangeTombstones {
		if !pg.purgeable(rt.Deletion) && !gone.shadows(rt.Deletion) {
			out.RangeTombstones = append(out.RangeTombstones, rt)
		}
	}
	ranges := rangeCursor{rts: p.RangeTombstones}
	for i := range p.Rows {
		r := &p.Rows[i]
		rowGone := gone
		if d := ranges.covering(r.Clustering); pg.purgeable(d) {
			rowGone = rowGone.max(d)
		} else {
			rowGone = rowGone.max(pg.covers(d))
		}
		if pr := pg.row(r, rowGone); !pr.IsEmpty() {
			out.Rows = append(out.Rows, pr)
		}
	}
	return out
}

// PurgeAll is purger.partition, which Purge and Respond call once they
// have found something to purge.
func PurgeAll(p Partition, nowInSec, gcBefore int64, dropCovered bool) Partition {
	return purger{now: nowInSec, gc: gcBefore, dropCovered: dropCovered}.partition(&p)
}
