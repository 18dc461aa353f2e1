package replica_test

import (
	"slices"

	"github.com/readpath/readpath/replica"
)

// The reference answer of a replica to a query, written plainly from the
// rules (Cassandra's ReadCommand.executeLocally): filter the rows and clip
// the range tombstones to the slices, project, purge, then walk the rows
// in the query's order counting the rows the visible view shows, cut after
// the limit-th, and count tombstones over what the walk met. The answer
// holds nothing a deletion covers: a replica reconciles what it holds as
// it reads it. Positions are the reference strings of bound_test.go.

type referenceAnswer struct {
	p           replica.Partition
	tombstones  int
	live        int  // live rows (LiveRows) of the answer
	reached     bool // the limit stopped the walk at a row
	overwhelmed bool
}

func answerByReference(stored replica.Partition, cmd replica.Command) referenceAnswer {
	q := cmd.Query
	p := reconciled(referenceRestrict(stored, q.Slices).Project(cmd.Columns).Purge(cmd.NowInSec, cmd.GCBefore))
	visible := visibleRows(p, cmd.NowInSec)
	order := queryOrder(p, q.Reversed)
	var a referenceAnswer
	met := order
	for n, i := range order {
		if visible[p.Rows[i].Clustering] {
			a.live++
			if a.live == q.Limit {
				a.reached, met = true, order[:n+1]
				break
			}
		}
	}
	a.tombstones = referenceTombstones(p, met, q.Reversed, cmd.NowInSec, a.reached)
	a.overwhelmed = cmd.TombstoneFailureThreshold > 0 && a.tombstones > cmd.TombstoneFailureThreshold
	if a.reached {
		p = referenceCut(p, p.Rows[met[len(met)-1]].Clustering, q.Reversed)
	}
	if a.live == 0 && len(p.Visible(cmd.NowInSec).Static) > 0 && selectsEverything(q.Slices) {
		a.live = 1
	}
	a.p = p
	return a
}

// reconciled returns p without what its deletions cover (Cassandra's
// Row.Merger over one source): range tombstones and the static row's cells
// under the partition deletion; in a row, a row deletion no newer than the
// partition's or its range's, and what the strongest of those deletes. Its
// range tombstones are written as repair.Merge writes them: canonical
// bounds, and touching ranges of one deletion joined.
func reconciled(p replica.Partition) replica.Partition {
	out := replica.Partition{Key: p.Key, Deletion: p.Deletion}
	for _, rt := range p.RangeTombstones {
		if !kept(rt.Deletion, p.Deletion) {
			continue
		}
		rt.Start, rt.End = rt.Start.AsStart(), rt.End.AsEnd()
		if n := len(out.RangeTombstones); n > 0 {
			if last := &out.RangeTombstones[n-1]; last.Deletion == rt.Deletion && last.End.Compare(rt.Start) == 0 {
				last.End = rt.End
				continue
			}
		}
		out.RangeTombstones = append(out.RangeTombstones, rt)
	}
	out.Static = uncoveredRow(p.Static, p.Deletion)
	for _, r := range p.Rows {
		if u := uncoveredRow(r, strongest(p.Deletion, coveringRange(p, r.Clustering))); !u.IsEmpty() {
			out.Rows = append(out.Rows, u)
		}
	}
	return out
}

// kept reports whether deletion d survives under the deletion over it.
func kept(d, over replica.Deletion) bool { return !d.IsLive() && (over.IsLive() || d.Supersedes(over)) }

// uncoveredRow returns r without what outer, its row deletion and its
// complex deletions cover.
func uncoveredRow(r replica.Row, outer replica.Deletion) replica.Row {
	out := replica.Row{Clustering: r.Clustering}
	if kept(r.Deletion, outer) {
		out.Deletion = r.Deletion
	}
	active := strongest(outer, out.Deletion)
	if !active.Deletes(r.Liveness.Timestamp) {
		out.Liveness = r.Liveness
	}
	for _, cd := range r.ComplexDeletions {
		if kept(cd.Deletion, active) {
			out.ComplexDeletions = append(out.ComplexDeletions, cd)
		}
	}
	for _, c := range r.Cells {
		if !strongest(active, columnDeletion(r, c.Column)).Deletes(c.Timestamp) {
			out.Cells = append(out.Cells, c)
		}
	}
	return out
}

// referenceRestrict keeps the rows some slice holds and the pieces of range
// tombstones inside slices, joining the pieces of one range tombstone that
// touch.
func referenceRestrict(p replica.Partition, in []replica.Slice) replica.Partition {
	if in == nil {
		return p
	}
	out := replica.Partition{Key: p.Key, Deletion: p.Deletion, Static: p.Static}
	for _, r := range p.Rows {
		if referenceContains(in, r.Clustering) {
			out.Rows = append(out.Rows, r)
		}
	}
	lastFrom := -1
	for _, s := range in {
		for i, rt := range p.RangeTombstones {
			start, end := rt.Start, rt.End
			if compareReferences(s.Start, start) > 0 {
				start = s.Start.AsStart()
			}
			if compareReferences(s.End, end) < 0 {
				end = s.End.AsEnd()
			}
			if compareReferences(start, end) >= 0 {
				continue
			}
			n := len(out.RangeTombstones)
			if lastFrom == i && compareReferences(out.RangeTombstones[n-1].End, start) == 0 {
				out.RangeTombstones[n-1].End = end
				continue
			}
			out.RangeTombstones = append(out.RangeTombstones, replica.NewRangeTombstone(start, end, rt.Deletion))
			lastFrom = i
		}
	}
	return out
}

// visibleRows returns the clustering keys of the rows a client sees.
func visibleRows(p replica.Partition, now int64) map[string]bool {
	shown := map[string]bool{}
	for _, r := range p.Visible(now).Rows {
		if !r.Static {
			shown[r.Clustering] = true
		}
	}
	return shown
}

// queryOrder returns the indexes of p's rows in the query's order.
func queryOrder(p replica.Partition, reversed bool) []int {
	order := make([]int, len(p.Rows))
	for i := range order {
		order[i] = i
	}
	if reversed {
		slices.Reverse(order)
	}
	return order
}

// referenceTombstones counts, in what reconciliation keeps (nothing a
// deletion covers), the tombstones of the static row, of the rows met, and
// the distinct positions of the bounds of range tombstones met: before the
// last row met's far edge when the limit stopped the walk there.
func referenceTombstones(p replica.Partition, met []int, reversed bool, now int64, stopped bool) int {
	v := p.Visible(now)
	n := rowTombstones(p.Static, p.Deletion, len(v.Static) > 0, now)
	shown := visibleRows(p, now)
	for _, i := range met {
		r := p.Rows[i]
		n += rowTombstones(r, strongest(p.Deletion, coveringRange(p, r.Clustering)), shown[r.Clustering], now)
	}
	type position struct {
		ref    string
		finite bool
	}
	positions := map[position]bool{}
	for _, rt := range p.RangeTombstones {
		if !p.Deletion.IsLive() && !rt.Deletion.Supersedes(p.Deletion) {
			continue // covered by the partition deletion
		}
		for _, b := range []replica.Bound{rt.Start, rt.End} {
			ref, finite := reference(b)
			if !stopped || boundMet(ref, finite, p.Rows[met[len(met)-1]].Clustering, reversed) {
				positions[position{ref, finite}] = true
			}
		}
	}
	return n + len(positions)
}

// boundMet reports whether a walk that stopped at the row at last met the
// bound at the reference position ref.
func boundMet(ref string, finite bool, last string, reversed bool) bool {
	if reversed {
		return !finite || ref > last
	}
	return finite && ref < last+"\x00"
}

// rowTombstones counts a row's dead cells that no deletion covers, or one
// for a row that is not live, has no such cell and holds a deletion that
// nothing covers. outer is the partition's and range's deletion over it.
func rowTombstones(r replica.Row, outer replica.Deletion, live bool, now int64) int {
	active := strongest(outer, r.Deletion)
	dead := 0
	for _, c := range r.Cells {
		if !c.IsLive(now) && !strongest(active, columnDeletion(r, c.Column)).Deletes(c.Timestamp) {
			dead++
		}
	}
	deletion := kept(r.Deletion, outer)
	for _, cd := range r.ComplexDeletions {
		deletion = deletion || kept(cd.Deletion, active)
	}
	expired := r.Liveness.TTL > 0 && now >= r.Liveness.ExpiresAt && !active.Deletes(r.Liveness.Timestamp)
	if dead == 0 && !live && (deletion || expired) {
		return 1
	}
	return dead
}

func strongest(a, b replica.Deletion) replica.Deletion {
	if b.Supersedes(a) {
		return b
	}
	return a
}

func coveringRange(p replica.Partition, clustering string) replica.Deletion {
	for _, rt := range p.RangeTombstones {
		if rt.Covers(clustering) {
			return rt.Deletion
		}
	}
	return replica.Deletion{}
}

func columnDeletion(r replica.Row, column string) replica.Deletion {
	for _, cd := range r.ComplexDeletions {
		if cd.Column == column {
			return cd.Deletion
		}
	}
	return replica.Deletion{}
}

// referenceCut drops the rows after last in the query's order and clips
// range tombstones at last.
func referenceCut(p replica.Partition, last string, reversed bool) replica.Partition {
	out := replica.Partition{Key: p.Key, Deletion: p.Deletion, Static: p.Static}
	for _, r := range p.Rows {
		if (!reversed && r.Clustering <= last) || (reversed && r.Clustering >= last) {
			out.Rows = append(out.Rows, r)
		}
	}
	for _, rt := range p.RangeTombstones {
		cut := replica.EndAt(last)
		if reversed {
			cut = replica.StartAt(last)
		}
		switch {
		case reversed && compareReferences(rt.End, cut) <= 0, !reversed && compareReferences(rt.Start, cut) >= 0:
			continue // wholly past the cut
		case reversed && compareReferences(rt.Start, cut) < 0:
			rt.Start = cut.AsStart()
		case !reversed && compareReferences(rt.End, cut) > 0:
			rt.End = cut
		}
		out.RangeTombstones = append(out.RangeTombstones, rt)
	}
	return out
}

// selectsEverything reports whether slices restrict no clustering key:
// nil, or one slice from Bottom to Top (bounds that select every key, as
// StartAt(""), restrict).
func selectsEverything(in []replica.Slice) bool {
	return in == nil || len(in) == 1 && in[0].Start.Kind == replica.BoundBottom && in[0].End.Kind == replica.BoundTop
}
