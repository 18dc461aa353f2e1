package coordinator_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/readpath/readpath/replica"
)

// The reference model of the read path: what a client must see of a set of
// replica versions at nowInSec, written from DESIGN.md §2.5 and §2.5b
// without the repair or replica packages' merge, purge or query code.

// refRow is one row a client sees: its clustering and its live cells.
type refRow struct {
	Clustering string
	Cells      string // "col=value" pairs in column order
}

func (r refRow) String() string { return r.Clustering + "{" + r.Cells + "}" }

// refCell is a cell as a replica answers it at now: an expired expiring
// cell has become a tombstone written when the cell was.
type refCell struct {
	ts, ldt int64
	rank    int // 0 live, 1 expiring, 2 tombstone
	value   []byte
}

func refCellAt(c replica.Cell, now int64) refCell {
	switch {
	case c.Tombstone:
		return refCell{ts: c.Timestamp, ldt: c.LocalDeletionTime, rank: 2}
	case c.TTL > 0 && now >= c.LocalDeletionTime:
		return refCell{ts: c.Timestamp, ldt: c.LocalDeletionTime - int64(c.TTL), rank: 2}
	case c.TTL > 0:
		return refCell{ts: c.Timestamp, ldt: c.LocalDeletionTime, rank: 1, value: c.Value}
	}
	return refCell{ts: c.Timestamp, rank: 0, value: c.Value}
}

// beats applies §2.5's cell rules in order: timestamp, then tombstone or
// expiring over live, tombstone over expiring, local deletion time, value.
func (a refCell) beats(b refCell) bool {
	if a.ts != b.ts {
		return a.ts > b.ts
	}
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	if a.rank > 0 && a.ldt != b.ldt {
		return a.ldt > b.ldt
	}
	return bytes.Compare(a.value, b.value) > 0
}

// refProject keeps only the cells of columns (all when nil): a row
// exists for a selection by its liveness or a selected live cell.
func refProject(p replica.Partition, columns []string) replica.Partition {
	if columns == nil {
		return p
	}
	p = p.Clone()
	for i, r := range p.Rows {
		p.Rows[i].Cells = slices.DeleteFunc(r.Cells, func(c replica.Cell) bool { return !slices.Contains(columns, c.Column) })
	}
	return p
}

// refLivenessBeats is Cassandra's LivenessInfo.supersedes for the
// liveness a write sets: the higher timestamp, then an expiring liveness
// over one that is not, then the later expiry.
func refLivenessBeats(a, b replica.Liveness) bool {
	switch {
	case a.Timestamp != b.Timestamp:
		return a.Timestamp > b.Timestamp
	case (a.TTL > 0) != (b.TTL > 0):
		return a.TTL > 0
	}
	return a.ExpiresAt > b.ExpiresAt
}

// refAfterStart and refBeforeEnd place ck against a bound by position:
// an inclusive start or exclusive end of k lies just before k, an
// exclusive start or inclusive end just after it.
func refAfterStart(b replica.Bound, ck string) bool {
	switch b.Kind {
	case replica.BoundBottom:
		return true
	case replica.BoundTop:
		return false
	case replica.BoundInclusiveStart, replica.BoundExclusiveEnd:
		return ck >= b.Clustering
	}
	return ck > b.Clustering
}

func refBeforeEnd(b replica.Bound, ck string) bool {
	switch b.Kind {
	case replica.BoundTop:
		return true
	case replica.BoundBottom:
		return false
	case replica.BoundInclusiveStart, replica.BoundExclusiveEnd:
		return ck < b.Clustering
	}
	return ck <= b.Clustering
}

func refWithin(start, end replica.Bound, ck string) bool {
	return refAfterStart(start, ck) && refBeforeEnd(end, ck)
}

// refRowState gathers everything the versions hold of one clustering.
type refRowState struct {
	del      int64 // the highest row deletion
	liveness replica.Liveness
	cells    map[string]refCell
}

// refVisible is what a client sees of the versions merged, at now, in
// ascending clustering order. A deletion shadows what is not newer; every
// replica drops a tombstone deleted before gcBefore before answering.
func refVisible(versions []replica.Partition, now, gcBefore int64) []refRow {
	var pdel int64
	var rts []replica.RangeTombstone
	rows := map[string]*refRowState{}
	kept := func(d replica.Deletion) int64 {
		if d.LocalDeletionTime < gcBefore {
			return 0
		}
		return d.MarkedForDeleteAt
	}
	for _, p := range versions {
		pdel = max(pdel, kept(p.Deletion))
		for _, rt := range p.RangeTombstones {
			if kept(rt.Deletion) > 0 {
				rts = append(rts, rt)
			}
		}
		for _, r := range p.Rows {
			s := rows[r.Clustering]
			if s == nil {
				s = &refRowState{cells: map[string]refCell{}}
				rows[r.Clustering] = s
			}
			s.del = max(s.del, kept(r.Deletion))
			if l := r.Liveness; !(l.TTL > 0 && l.ExpiresAt < gcBefore) && refLivenessBeats(l, s.liveness) {
				s.liveness = l
			}
			for _, c := range r.Cells {
				id, rc := c.Column+"["+c.Path+"]", refCellAt(c, now)
				if rc.rank == 2 && rc.ldt < gcBefore {
					continue
				}
				if old, ok := s.cells[id]; !ok || rc.beats(old) {
					s.cells[id] = rc
				}
			}
		}
	}
	var out []refRow
	for ck, s := range rows {
		del := max(pdel, s.del)
		for _, rt := range rts {
			if refWithin(rt.Start, rt.End, ck) {
				del = max(del, rt.Deletion.MarkedForDeleteAt)
			}
		}
		if r, ok := s.visible(ck, del, now); ok {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b refRow) int { return strings.Compare(a.Clustering, b.Clustering) })
	return out
}

func (s *refRowState) visible(ck string, del, now int64) (refRow, bool) {
	var cells []string
	for id, c := range s.cells {
		if c.rank < 2 && c.ts > del {
			cells = append(cells, fmt.Sprintf("%s=%s", id, c.value))
		}
	}
	slices.Sort(cells)
	l := s.liveness
	alive := l.Timestamp > del && (l.TTL == 0 || now < l.ExpiresAt)
	return refRow{ck, strings.Join(cells, ",")}, alive || len(cells) > 0
}

// refQuery applies a query to visible rows: the rows of its slices (all
// when nil), in its order, up to its limit, after skip (in that order)
// when skip is set.
func refQuery(rows []refRow, q replica.Query, skip *string) []refRow {
	var out []refRow
	for _, r := range rows {
		in := q.Slices == nil
		for _, s := range q.Slices {
			in = in || refWithin(s.Start, s.End, r.Clustering)
		}
		if in {
			out = append(out, r)
		}
	}
	if q.Reversed {
		slices.Reverse(out)
	}
	if skip != nil {
		out = slices.DeleteFunc(out, func(r refRow) bool {
			return (!q.Reversed && r.Clustering <= *skip) || (q.Reversed && r.Clustering >= *skip)
		})
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out
}

// viewRows turns what a read returned into the model's rows, in ascending
// clustering order.
func viewRows(v replica.View) []refRow {
	var out []refRow
	for _, r := range v.Rows {
		out = append(out, viewRow(r))
	}
	return out
}

// viewRow is one row of a view as the model's row.
func viewRow(r replica.ViewRow) refRow {
	var cells []string
	for _, c := range r.Cells {
		cells = append(cells, fmt.Sprintf("%s[%s]=%s", c.Column, c.Path, c.Value))
	}
	slices.Sort(cells)
	return refRow{r.Clustering, strings.Join(cells, ",")}
}

// ascending sorts model rows by clustering, as views hold them.
func ascending(rows []refRow) []refRow {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b refRow) int { return strings.Compare(a.Clustering, b.Clustering) })
	return rows
}
