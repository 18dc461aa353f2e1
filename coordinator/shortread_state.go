package coordinator

import (
	"fmt"
	"slices"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// shortReads is the state of one read's short-read protection, kept from
// round to round so that a round costs what it fetched. Each continuation
// holds only rows after its replica's last, so it is merged into the
// running merge and into its version where it overlaps them, not with
// everything again (mergeInto: Merge is a join, so the result is the
// same). And the merge's live rows are counted on from a mark: up to
// where the first replica asked in a round ended, which that round's
// continuations lie after (one that does not, or that deletes more of the
// partition, drops the mark: keepsMark).
type shortReads struct {
	q      replica.Query
	now    int64
	merged replica.Partition // every version merged, ours to change
	// grow says whether the versions take their continuations' rows, for
	// their repairs' diffs. Without read repair a version is only where
	// its replica's answers end: it keeps the answer that ends furthest.
	grow bool
	more []bool // per version: its last answer reached the limit
	// ends holds, per version, the last row of its replica's last answer
	// in q's order, where its next continuation starts: not its version's
	// last row, which merging a continuation can move back (a row the
	// replica's own earlier tombstone covers drops out), so that a replica
	// was asked for the same rows again and again until the read timed
	// out. Cassandra's ShortReadRowsProtection tracks lastClustering from
	// the rows as they come too.
	ends  []string
	owned []bool      // per version, if grow: its partition is ours to change
	rooms []partRooms // per version, if grow: mergeInto's
	room  partRooms   // the merge's
	mark  tally       // the merge's live rows up to a row no fetch changes
	// cands and asks are a round's candidates and the versions it asks,
	// their arrays reused from round to round.
	cands, asks []int
}

// tally is the count of the merge's live rows in q's order up to the row
// at key, included; the zero tally has counted nothing.
type tally struct {
	key     string
	n       int
	counted bool
}

// newShortReads merges vs, the versions' first answers, and notes which
// reached the limit.
func (r *read) newShortReads(vs []version) (*shortReads, error) {
	merged, err := r.mergeVersions(vs)
	if err != nil {
		return nil, err
	}
	s := &shortReads{q: r.q, now: r.nowInSec, merged: merged, grow: r.opts.ReadRepair != repair.None,
		more: make([]bool, len(vs)), ends: make([]string, len(vs))}
	if s.grow {
		s.owned, s.rooms = make([]bool, len(vs)), make([]partRooms, len(vs))
	}
	for i := range vs {
		s.noteAnswer(i, vs[i].part, r.q)
	}
	return s, nil
}

// noteAnswer notes where version i's answer a to q ends, and whether it
// reached the limit: an answer that did has rows, the last of them the end.
func (s *shortReads) noteAnswer(i int, a replica.Partition, q replica.Query) {
	_, s.more[i] = a.Limit(q, s.now)
	if last, ok := a.LastClustering(s.q); ok {
		s.ends[i] = last
	}
}

// candidates returns the versions whose last answer reached the limit
// before the end of q's slices, by where it ended in q's order.
func (s *shortReads) candidates(vs []version) []int {
	cands := s.cands[:0]
	for i := range vs {
		if s.more[i] && s.follows(s.ends[i]) {
			cands = append(cands, i)
		}
	}
	slices.SortStableFunc(cands, func(i, j int) int { return s.order(s.ends[i], s.ends[j]) })
	s.cands = cands
	return cands
}

// follows reports whether q's slices hold rows after last, in q's order.
// One that ended at the end of the slices has nothing more to give, and
// asking it would send a query of no slices: a round trip for nothing,
// and a read of every row over a transport that loses an empty list.
//
// Only q's last slice (its first, reversed) is asked: the slices are
// ordered, so some slice holds rows after last exactly when that one does.
// It is compared in place, as Query.After cuts slices: After over the
// whole query copied every slice after last, what an IN list has left,
// for each replica judged, and over the edge alone it still allocated
// once a round.
func (s *shortReads) follows(last string) bool {
	var edge replica.Slice
	switch sl := s.q.Slices; {
	case sl == nil:
		edge = replica.AllRows()
	case len(sl) == 0:
		return false
	case s.q.Reversed:
		edge = sl[0]
	default:
		edge = sl[len(sl)-1]
	}
	if s.q.Reversed {
		return edge.Start.Compare(replica.StartAt(last)) < 0
	}
	return edge.End.Compare(replica.EndAt(last)) > 0
}

// order compares clustering keys in q's order.
func (s *shortReads) order(a, b string) int {
	c := replica.StartAt(a).Compare(replica.StartAt(b))
	if s.q.Reversed {
		return -c
	}
	return c
}

// countThrough returns t counted on to last: the merge's live rows in q's
// order up to last, included, not counting the static row.
func (s *shortReads) countThrough(t tally, last string) tally {
	if t.counted && s.order(last, t.key) <= 0 {
		if s.order(last, t.key) == 0 {
			return t
		}
		t = tally{} // before the mark: only a replica answering out of its query gets here
	}
	seg := replica.Slice{Start: replica.Bottom(), End: replica.EndAt(last)}
	if t.counted {
		seg.Start = replica.StartAfter(t.key)
	}
	if s.q.Reversed {
		seg = replica.Slice{Start: replica.StartAt(last), End: replica.Top()}
		if t.counted {
			seg.End = replica.EndBefore(t.key)
		}
	}
	q := replica.Query{Slices: []replica.Slice{seg}, Reversed: s.q.Reversed}
	rows := s.merged.Restrict(q)
	rows.Static = replica.Row{} // never counted here (shortReplicas)
	return tally{key: last, n: t.n + rows.LiveRows(q, s.now), counted: true}
}

// add folds version i's continuation c into the version and the merge.
func (s *shortReads) add(vs []version, i int, c replica.Partition) error {
	if !s.grow {
		s.extend(&vs[i], c)
	} else if err := s.growVersion(vs, i, c); err != nil {
		return err
	}
	if !s.keepsMark(c) {
		s.mark = tally{}
	}
	var err error
	if s.merged, err = mergeInto(s.merged, c, &s.room); err != nil {
		return fmt.Errorf("coordinator: merging replica versions: %w", err)
	}
	return nil
}

// extend makes c the version if it ends further in q's order: all that is
// asked of a version that is not grown.
func (s *shortReads) extend(v *version, c replica.Partition) {
	last, ok := c.LastClustering(s.q)
	if !ok {
		return
	}
	if was, had := v.part.LastClustering(s.q); !had || s.order(last, was) > 0 {
		v.part = c
	}
}

// growVersion merges version i's continuation c into the version.
func (s *shortReads) growVersion(vs []version, i int, c replica.Partition) error {
	merge := mergeInto
	if !s.owned[i] {
		merge = mergeWhole // the first time: the answer is not ours to change
	}
	v, err := merge(vs[i].part, c, &s.rooms[i])
	if err != nil {
		return fmt.Errorf("coordinator: merging a replica's continuation: %w", err)
	}
	vs[i].part, s.owned[i] = v, true
	return nil
}

// keepsMark reports whether merging c leaves the merge's rows up to the
// mark as they are: c lies after the mark in q's order (a continuation
// does) and deletes no more of the partition.
func (s *shortReads) keepsMark(c replica.Partition) bool {
	if !s.mark.counted {
		return true
	}
	lo, hi, ok := span(c)
	switch {
	case c.Deletion.Supersedes(s.merged.Deletion):
		return false
	case !ok:
		return true
	case s.q.Reversed:
		return hi.Compare(replica.StartAt(s.mark.key)) <= 0
	}
	return lo.Compare(replica.EndAt(s.mark.key)) >= 0
}
