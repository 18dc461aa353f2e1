package replica_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// An oracle of what a CQL client sees, written from Cassandra's rules
// rather than from readpath's code: Cell.isLive (a tombstone never, an
// expiring cell while nowInSec < its local deletion time), LivenessInfo.
// isLive, DeletionTime.deletes (timestamp <= markedForDeleteAt) applied
// from the partition deletion, the range tombstones over the row (never
// the static row), the row deletion and the column's complex deletion;
// Row.hasLiveData for row existence; and SelectStatement's static-only
// row for a partition with live static cells and no live row
// (returnStaticContentOnPartitionWithNoRows, a full-partition query).
// Checked against Partition.Visible and LiveRows over random partitions.
func TestVisibleMatchesCassandraOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		now := rapid.Int64Range(0, 8).Draw(t, "now")
		deletes := func(ts int64, ds ...replica.Deletion) bool {
			for _, d := range ds {
				if !d.IsLive() && ts <= d.MarkedForDeleteAt {
					return true
				}
			}
			return false
		}
		liveCells := func(r replica.Row, ds []replica.Deletion) []replica.Cell {
			var out []replica.Cell
			for _, c := range r.Cells {
				if c.Tombstone || (c.TTL > 0 && now >= c.LocalDeletionTime) {
					continue
				}
				all := ds
				for _, cd := range r.ComplexDeletions {
					if cd.Column == c.Column {
						all = append(append([]replica.Deletion(nil), ds...), cd.Deletion)
					}
				}
				if deletes(c.Timestamp, all...) {
					continue
				}
				out = append(out, c)
			}
			return out
		}
		wantStatic := liveCells(p.Static, []replica.Deletion{p.Deletion})
		var wantRows []replica.ViewRow
		for _, r := range p.Rows {
			ds := []replica.Deletion{p.Deletion, r.Deletion}
			for _, rt := range p.RangeTombstones {
				if rt.Covers(r.Clustering) {
					ds = append(ds, rt.Deletion)
				}
			}
			cells := liveCells(r, ds)
			l := r.Liveness
			pkLive := !l.IsEmpty() && (l.TTL == 0 || now < l.ExpiresAt) && !deletes(l.Timestamp, ds...)
			if len(cells) > 0 || pkLive {
				wantRows = append(wantRows, replica.ViewRow{Clustering: r.Clustering, Cells: cells})
			}
		}
		if len(wantRows) == 0 && len(wantStatic) > 0 {
			wantRows = []replica.ViewRow{{Static: true}}
		}
		v := p.Visible(now)
		if len(v.Static) != len(wantStatic) {
			t.Fatalf("static: got %v, want %v\n%v", v.Static, wantStatic, p)
		}
		for i := range wantStatic {
			if !v.Static[i].Equal(wantStatic[i]) {
				t.Fatalf("static: got %v, want %v\n%v", v.Static, wantStatic, p)
			}
		}
		if len(v.Rows) != len(wantRows) {
			t.Fatalf("rows: got %v, want %v\n%v", v, wantRows, p)
		}
		for i := range wantRows {
			if !v.Rows[i].Equal(wantRows[i]) {
				t.Fatalf("row %d: got %v, want %v\n%v", i, v.Rows[i], wantRows[i], p)
			}
		}
		if got := p.LiveRows(replica.Query{}, now); got != len(wantRows) {
			t.Fatalf("LiveRows %d, want %d\n%v", got, len(wantRows), p)
		}
	})
}

// Cassandra's read-time purge (PurgeFunction with a gcBefore at or before
// nowInSec) never changes what a client sees: a purged tombstone takes
// what it deleted with it, an expired cell was invisible already. Nor does
// Respond, which also reconciles covered data away.
func TestPurgeAndRespondKeepWhatAClientSees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		now := rapid.Int64Range(1, 8).Draw(t, "now")
		gc := rapid.Int64Range(0, now).Draw(t, "gcBefore")
		want := p.Visible(now)
		if got := p.Purge(now, gc).Visible(now); !got.Equal(want) {
			t.Fatalf("purged: %v, want %v\n%v\n%v", got, want, p, p.Purge(now, gc))
		}
		res, err := replica.Command{Key: p.Key, NowInSec: now, GCBefore: gc}.Respond(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Partition.Visible(now); !got.Equal(want) {
			t.Fatalf("respond: %v, want %v\n%v\n%v", got, want, p, res.Partition)
		}
	})
}
