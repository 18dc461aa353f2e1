package replicatest_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Mutants that decide a timestamp tie by something other than the
// reconciliation rules (by kind, then by local deletion time: what
// expires or is purged when, CASSANDRA-14592), that purge at gcBefore
// rather than before it, or that lose the static row of a projection.

// expiringBeatsTombstoneOnTie ranks "has a TTL" above "is deleted": the
// deleted value stays readable until it expires.
var expiringBeatsTombstoneOnTie = tieOverride(func(h, w replica.Cell) (replica.Cell, bool) {
	switch {
	case h.Tombstone && w.IsExpiring():
		return w, true
	case w.Tombstone && h.IsExpiring():
		return h, true
	}
	return replica.Cell{}, false
})

// valueTiesExpiringCells decides two tied expiring cells by value, not by
// the later expiry.
var valueTiesExpiringCells = tieOverride(func(h, w replica.Cell) (replica.Cell, bool) {
	if h.IsExpiring() && w.IsExpiring() {
		if string(w.Value) > string(h.Value) {
			return w, true
		}
		return h, true
	}
	return replica.Cell{}, false
})

// heldCellTombstoneWinsTie keeps the tombstone held, not the one of the
// later local deletion time, which decides when it is purged.
var heldCellTombstoneWinsTie = tieOverride(func(h, w replica.Cell) (replica.Cell, bool) {
	if h.Tombstone && w.Tombstone {
		return h, true
	}
	return replica.Cell{}, false
})

// tieOverride returns an Apply that merges as repair.Merge does, except
// that where a cell written ties on timestamp with the one held, pick
// (when it decides) chooses the winner.
func tieOverride(pick func(held, written replica.Cell) (replica.Cell, bool)) func(*mapReplica, [2]string, replica.Partition, replica.Partition) error {
	return func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		merged, err := repair.Merge(held, p)
		if err != nil {
			return err
		}
		override := func(m, h, w *replica.Row) {
			m.Cells = slices.Clone(m.Cells)
			for j, c := range m.Cells {
				same := func(o replica.Cell) bool { return o.Column == c.Column && o.Path == c.Path }
				a, b := matchingCell(*h, same), matchingCell(*w, same)
				if a == nil || b == nil || a.Timestamp != b.Timestamp {
					continue
				}
				if win, ok := pick(*a, *b); ok {
					m.Cells[j] = win
				}
			}
		}
		override(&merged.Static, &held.Static, &p.Static)
		forRowsOfBoth(merged, held, p, func(m, h, w *replica.Row) { override(m, h, w) })
		r.data[k] = merged
		return nil
	}
}

// forRowsOfBoth calls f with each row of merged that held and p both have,
// and theirs.
func forRowsOfBoth(merged, held, p replica.Partition, f func(m, h, w *replica.Row)) {
	for i := range merged.Rows {
		h, w := rowIndex(held, merged.Rows[i].Clustering), rowIndex(p, merged.Rows[i].Clustering)
		if h >= 0 && w >= 0 {
			f(&merged.Rows[i], &held.Rows[h], &p.Rows[w])
		}
	}
}

// permanentLivenessWinsTie keeps a row's liveness that does not expire
// over a tied one that does: the row shows past its TTL.
func permanentLivenessWinsTie(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	forRowsOfBoth(merged, held, p, func(m, h, w *replica.Row) {
		hl, wl := h.Liveness, w.Liveness
		if !hl.IsEmpty() && !wl.IsEmpty() && hl.Timestamp == wl.Timestamp && hl.IsExpiring() != wl.IsExpiring() {
			if hl.IsExpiring() {
				hl = wl
			}
			m.Liveness = hl
		}
	})
	r.data[k] = merged
	return err
}

// heldRowDeletionWinsTie keeps the row deletion held when another has its
// timestamp, not the one of the later local deletion time.
func heldRowDeletionWinsTie(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	forRowsOfBoth(merged, held, p, func(m, h, w *replica.Row) {
		if !h.Deletion.IsLive() && !w.Deletion.IsLive() && h.Deletion.MarkedForDeleteAt == w.Deletion.MarkedForDeleteAt {
			m.Deletion = h.Deletion
		}
	})
	r.data[k] = merged
	return err
}

// heldRangeTombstoneWinsTie keeps, over the rows two range tombstones of
// one timestamp share, the held one's local deletion time.
func heldRangeTombstoneWinsTie(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	merged.RangeTombstones = slices.Clone(merged.RangeTombstones)
	for i, m := range merged.RangeTombstones {
		for _, h := range held.RangeTombstones {
			if h.Deletion.MarkedForDeleteAt == m.Deletion.MarkedForDeleteAt && h.Start.Compare(m.End) < 0 && m.Start.Compare(h.End) < 0 {
				merged.RangeTombstones[i].Deletion = h.Deletion
			}
		}
	}
	r.data[k] = merged
	return err
}

// heldComplexDeletionWinsTie keeps a collection's deletion held when
// another has its timestamp.
func heldComplexDeletionWinsTie(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	for i := range merged.Rows {
		h := rowIndex(held, merged.Rows[i].Clustering)
		if h < 0 {
			continue
		}
		cds := slices.Clone(merged.Rows[i].ComplexDeletions)
		for j, cd := range cds {
			for _, hd := range held.Rows[h].ComplexDeletions {
				if hd.Column == cd.Column && hd.Deletion.MarkedForDeleteAt == cd.Deletion.MarkedForDeleteAt {
					cds[j] = hd
				}
			}
		}
		merged.Rows[i].ComplexDeletions = cds
	}
	r.data[k] = merged
	return err
}

// purgesAtGCBefore purges a deletion made at gcBefore, where Cassandra's
// DeletionTime.isPurgeable purges only one made before it.
func purgesAtGCBefore(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.GCBefore > 0 {
		gone := func(d replica.Deletion) bool { return !d.IsLive() && d.LocalDeletionTime <= cmd.GCBefore }
		stored = stored.Clone()
		if gone(stored.Deletion) {
			stored.Deletion = replica.Deletion{}
		}
		stored.RangeTombstones = slices.DeleteFunc(stored.RangeTombstones, func(rt replica.RangeTombstone) bool { return gone(rt.Deletion) })
		for _, row := range rowsOf(&stored) {
			if gone(row.Deletion) {
				row.Deletion = replica.Deletion{}
			}
			row.ComplexDeletions = slices.DeleteFunc(row.ComplexDeletions, func(cd replica.ComplexDeletion) bool { return gone(cd.Deletion) })
		}
		stored.Rows = slices.DeleteFunc(stored.Rows, replica.Row.IsEmpty)
	}
	return cmd.Respond(stored)
}

// dropsLivenessExpiredAtGCBefore drops a row liveness that expired at
// gcBefore, where only one that expired before it is purged.
func dropsLivenessExpiredAtGCBefore(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.GCBefore > 0 {
		stored = stored.Clone()
		for i := range stored.Rows {
			if l := stored.Rows[i].Liveness; l.IsExpiring() && l.ExpiresAt <= cmd.GCBefore {
				stored.Rows[i].Liveness = replica.Liveness{}
			}
		}
		stored.Rows = slices.DeleteFunc(stored.Rows, replica.Row.IsEmpty)
	}
	return cmd.Respond(stored)
}

// dropsStaticOfProjection pushes a projection down to the engine's row
// scan, which never reaches the static row: SELECT s, x answers no s.
func dropsStaticOfProjection(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.Columns != nil {
		stored.Static = replica.Row{}
	}
	return cmd.Respond(stored)
}

// The tie mutants are real bugs: each answers a read of valid writes
// unlike Command.Respond on their merge, where the adapter unchanged does
// not.
func TestTieMutantsAreRealBugs(t *testing.T) {
	p := func(rows ...replica.Row) replica.Partition { return replica.NewPartition("k", rows...) }
	row := replica.NewRow
	cmd := func(now, gc int64, cols ...string) replica.Command {
		return replica.Command{Table: "t", Key: "k", NowInSec: now, GCBefore: gc, Columns: cols}
	}
	for name, c := range map[string]struct {
		writes []replica.Partition
		cmd    replica.Command
	}{
		"an expiring cell beats a tombstone on a tie": {[]replica.Partition{
			p(row("r", replica.Tombstone("x", 10, 100))),
			p(row("r", replica.Expiring("x", "deleted", 10, 1000, 1100))),
		}, cmd(200, 150)},
		"ties expiring cells by value": {[]replica.Partition{
			p(row("r", replica.Expiring("x", "a", 10, 1000, 1100))),
			p(row("r", replica.Expiring("x", "b", 10, 100, 200))),
		}, cmd(500, 150)},
		"keeps the held cell tombstone on a tie": {[]replica.Partition{
			p(row("r", replica.Tombstone("x", 10, 100))),
			p(row("r", replica.Tombstone("x", 10, 300))),
		}, cmd(400, 200)},
		"a permanent row liveness beats an expiring one on a tie": {[]replica.Partition{
			p(row("r").WithLiveness(replica.Inserted(10))),
			p(row("r").WithLiveness(replica.InsertedWithTTL(10, 100, 200))),
		}, cmd(300, 250)},
		"keeps the held row deletion on a tie": {[]replica.Partition{
			p(row("r").WithDeletion(replica.DeletedAt(10, 100))),
			p(row("r").WithDeletion(replica.DeletedAt(10, 300))),
		}, cmd(400, 200)},
		"keeps the held range tombstone on a tie": {[]replica.Partition{
			p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("c"), replica.DeletedAt(10, 100))),
			p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("c"), replica.DeletedAt(10, 300))),
		}, cmd(400, 200)},
		"keeps the held complex deletion on a tie": {[]replica.Partition{
			p(row("r").WithComplexDeletion("m", replica.DeletedAt(10, 100))),
			p(row("r").WithComplexDeletion("m", replica.DeletedAt(10, 300))),
		}, cmd(400, 200)},
		"purges deletions made at gcBefore": {[]replica.Partition{
			p(row("r").WithDeletion(replica.DeletedAt(10, 200))),
		}, cmd(400, 200)},
		"drops expired row liveness at gcBefore": {[]replica.Partition{
			p(row("r").WithLiveness(replica.InsertedWithTTL(10, 100, 200))),
		}, cmd(400, 200)},
		"drops the static row of a read by columns": {[]replica.Partition{
			p(row("r", replica.Live("x", "1", 10))).WithStatic(replica.Live("s", "static", 10)),
		}, cmd(0, 0, "s", "x")},
	} {
		m, ok := mutants[name]
		require.True(t, ok, name)
		stored, err := repair.Merge(c.writes...)
		require.NoError(t, err, name)
		want, err := c.cmd.Respond(stored)
		require.NoError(t, err, name)
		ctx := context.Background()
		good, bad := newMapReplica(mutant{}), newMapReplica(m.m)
		for _, w := range c.writes {
			require.NoError(t, good.Apply(ctx, replica.Mutation{Table: "t", Partition: w}), name)
			require.NoError(t, bad.Apply(ctx, replica.Mutation{Table: "t", Partition: w}), name)
		}
		got, err := good.Read(ctx, c.cmd)
		require.NoError(t, err, name)
		require.True(t, got.Partition.Equal(want.Partition), name)
		got, err = bad.Read(ctx, c.cmd)
		require.NoError(t, err, name)
		require.False(t, got.Partition.Equal(want.Partition), "%s: the mutant answers correctly: %v", name, got.Partition)
	}
}
