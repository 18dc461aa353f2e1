package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// inRow is a partition holding cell c alone.
func inRow(c replica.Cell) replica.Partition {
	return replica.NewPartition("k", replica.NewRow("r", c))
}

// Vectors ported from Cassandra's CellTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/CellTest.java), whose purger purges
// what has a local deletion time before gcBefore.
func TestPurgeCellVectors(t *testing.T) {
	const now = 100
	tests := []struct {
		name         string
		cell         replica.Cell
		gcBefore, at int64
		want         replica.Partition
	}{
		{"testNonPurgableTombstone", replica.Tombstone("val", now, now), now - 1, now + 1, inRow(replica.Tombstone("val", now, now))},
		{"testPurgeableTombstone", replica.Tombstone("val", now, now), now + 1, now + 1, replica.NewPartition("k")},
		{"testLiveExpiringCell", replica.Expiring("val", "a", now, 1, now+10), now, now + 1, inRow(replica.Expiring("val", "a", now, 1, now+10))},
		{"testExpiredTombstoneConversion", replica.Expiring("val", "a", now, 10, now+10), now, now + 11, inRow(replica.Tombstone("val", now, now))},
		{"testPurgeableExpiringCell", replica.Expiring("val", "a", now, 10, now+10), now + 1, now + 11, replica.NewPartition("k")},
		// AbstractCell.isLive: an expiring cell is live while nowInSec < its expiry.
		{"expired at its expiry", replica.Expiring("val", "a", now, 10, now+10), 0, now + 10, inRow(replica.Tombstone("val", now, now))},
		{"live just before it", replica.Expiring("val", "a", now, 10, now+10), 0, now + 9, inRow(replica.Expiring("val", "a", now, 10, now+10))},
		{"a path survives conversion", replica.Expiring("m", "a", now, 10, now+10).WithPath("k"), 0, now + 10, inRow(replica.Tombstone("m", now, now).WithPath("k"))},
		{"live cells never go", replica.Live("val", "a", 1), now * 2, now * 2, inRow(replica.Live("val", "a", 1))},
	}
	for _, tt := range tests {
		p := inRow(tt.cell)
		requireSamePartition(t, tt.want, p.Purge(tt.at, tt.gcBefore), tt.name)
		requireSamePartition(t, inRow(tt.cell), p, "%s: Purge changed its input", tt.name)
	}
}

func requireSamePartition(t *testing.T, want, got replica.Partition, format string, args ...any) {
	t.Helper()
	if !want.Equal(got) {
		t.Fatalf("%s:\n got  %v\n want %v", format, got, want)
	}
	_ = args
}

// Tombstones of every kind go once their local deletion time is before
// gcBefore, whatever their timestamp, and with them what they deleted.
func TestPurgeDropsEveryKindOfTombstone(t *testing.T) {
	old, fresh := replica.DeletedAt(50, 10), replica.DeletedAt(50, 30)
	under := replica.Live("x", "v", 40) // written before the deletions: shadowed
	above := replica.Live("y", "v", 60) // written after: stays
	const now, gc = 100, 20
	tests := []struct {
		name    string
		of      func(d replica.Deletion) replica.Partition
		dropped replica.Partition
		// aboveAll is what purging the tombstone at a timestamp above
		// every write leaves.
		aboveAll replica.Partition
	}{
		{"partition deletion", func(d replica.Deletion) replica.Partition {
			return replica.NewPartition("k", replica.NewRow("r", under, above)).WithDeletion(d)
		}, replica.NewPartition("k", replica.NewRow("r", above)), replica.NewPartition("k")},
		{"range tombstone", func(d replica.Deletion) replica.Partition {
			return replica.NewPartition("k", replica.NewRow("r", under, above)).
				WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("s"), d))
		}, replica.NewPartition("k", replica.NewRow("r", above)), replica.NewPartition("k")},
		{"row deletion", func(d replica.Deletion) replica.Partition {
			return replica.NewPartition("k", replica.NewRow("r", under, above).WithDeletion(d))
		}, replica.NewPartition("k", replica.NewRow("r", above)), replica.NewPartition("k")},
		{"complex deletion", func(d replica.Deletion) replica.Partition {
			return replica.NewPartition("k", replica.NewRow("r", under.WithPath("p"), above.WithPath("p")).WithComplexDeletion("x", d))
		}, replica.NewPartition("k", replica.NewRow("r", above.WithPath("p"))),
			replica.NewPartition("k", replica.NewRow("r", above.WithPath("p")))}, // column y is not x
		{"cell tombstone", func(d replica.Deletion) replica.Partition {
			return replica.NewPartition("k", replica.NewRow("r", replica.Tombstone("x", d.MarkedForDeleteAt, d.LocalDeletionTime), above))
		}, replica.NewPartition("k", replica.NewRow("r", above)),
			replica.NewPartition("k", replica.NewRow("r", above))}, // a cell tombstone deletes its cell only
	}
	for _, tt := range tests {
		requireSamePartition(t, tt.dropped, tt.of(old).Purge(now, gc), tt.name+" past gcBefore")
		requireSamePartition(t, tt.of(fresh), tt.of(fresh).Purge(now, gc), tt.name+" before gcBefore")
		requireSamePartition(t, tt.aboveAll, tt.of(replica.DeletedAt(99, 10)).Purge(now, gc), tt.name+" above everything")
	}
}

// A purged partition deletion takes the static row's cells and the range
// tombstones, row deletions and complex deletions it supersedes.
func TestPurgeOfAPartitionDeletionTakesWhatItShadows(t *testing.T) {
	p := replica.NewPartition("k",
		replica.NewRow("r", replica.Live("x", "v", 40)).WithDeletion(replica.DeletedAt(45, 90)).WithComplexDeletion("m", replica.DeletedAt(45, 90)),
		replica.NewRow("s", replica.Live("x", "v", 60)).WithLiveness(replica.Inserted(40)),
	).WithDeletion(replica.DeletedAt(50, 10)).
		WithStatic(replica.Live("s", "old", 40), replica.Live("t", "new", 60)).
		WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("b"), replica.DeletedAt(45, 90)))
	want := replica.NewPartition("k", replica.NewRow("s", replica.Live("x", "v", 60))).WithStatic(replica.Live("t", "new", 60))
	requireSamePartition(t, want, p.Purge(100, 20), "purged")
}

// Expired row liveness is not a tombstone: it stays, deleting nothing, until
// its expiry (not expiry − TTL) is before gcBefore (DeletionPurger's
// shouldPurge(LivenessInfo, nowInSec), 5.0).
func TestPurgeOfExpiredLiveness(t *testing.T) {
	l := replica.InsertedWithTTL(1, 10, 110)
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("x", "v", 1)).WithLiveness(l))
	tests := []struct {
		now, gc int64
		want    replica.Liveness
	}{
		{109, 109, l}, // live
		{120, 105, l}, // expired, but its expiry is not before gcBefore, though expiry − TTL is
		{120, 110, l}, // expiry equal to gcBefore
		{120, 111, replica.Liveness{}},
		{100, 111, l}, // not expired at nowInSec: kept whatever gcBefore
	}
	for _, tt := range tests {
		got := p.Purge(tt.now, tt.gc)
		require.Len(t, got.Rows, 1)
		assert.Equal(t, tt.want, got.Rows[0].Liveness, "now %d gcBefore %d", tt.now, tt.gc)
	}
	gone := replica.NewPartition("k", replica.NewRow("r").WithLiveness(l)).Purge(120, 111)
	assert.True(t, gone.IsEmpty(), "a row of nothing but expired liveness goes with it")
}

func TestPurgeWithoutReadTimePurgesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		q := p.Purge(0, 0)
		assert.True(t, q.Equal(p), "%v", q)
		if len(p.Rows) > 0 {
			assert.Same(t, &p.Rows[0], &q.Rows[0], "nothing to purge: p itself")
		}
	})
}

func readTimeGen(t *rapid.T) (now, gcBefore int64) {
	now = rapid.Int64Range(0, 6).Draw(t, "now")
	return now, rapid.Int64Range(-1, now).Draw(t, "gcBefore")
}

// Purge is idempotent, keeps a partition valid, does not modify it, and
// changes nothing a client sees at that time: it drops only tombstones,
// expired data and what tombstones shadow.
func TestPurgeLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		now, gc := readTimeGen(t)
		before := p.Clone()
		q := p.Purge(now, gc)
		if !p.Equal(before) {
			t.Fatalf("Purge modified its input")
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("purged %v is invalid: %v", q, err)
		}
		if again := q.Purge(now, gc); !again.Equal(q) {
			t.Fatalf("purging twice: %v, then %v", q, again)
		}
		if got, want := q.Visible(now), p.Visible(now); !got.Equal(want) {
			t.Fatalf("purge changed the view:\n got  %v\n want %v", got, want)
		}
	})
}

// After a purge at nowInSec, nothing is left that has expired, and no
// tombstone older than gcBefore.
func TestPurgeLeavesNothingPurgeable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now, gc := readTimeGen(t)
		q := partitionGen().Draw(t, "p").Purge(now, gc)
		old := func(d replica.Deletion) bool { return !d.IsLive() && d.LocalDeletionTime < gc }
		if old(q.Deletion) {
			t.Fatalf("partition deletion %v kept", q.Deletion)
		}
		for _, rt := range q.RangeTombstones {
			if old(rt.Deletion) {
				t.Fatalf("range tombstone %v kept", rt)
			}
		}
		for _, r := range append([]replica.Row{q.Static}, q.Rows...) {
			if old(r.Deletion) || (r.Liveness.IsExpiring() && !r.Liveness.IsLive(now) && r.Liveness.ExpiresAt < gc) {
				t.Fatalf("row %v keeps a purgeable deletion or liveness", r)
			}
			for _, cd := range r.ComplexDeletions {
				if old(cd.Deletion) {
					t.Fatalf("complex deletion %v kept", cd)
				}
			}
			for _, c := range r.Cells {
				if c.IsExpiring() && !c.IsLive(now) || c.Tombstone && c.LocalDeletionTime < gc {
					t.Fatalf("cell %v kept", c)
				}
			}
		}
	})
}

// Purge drops only what purged tombstones deleted: data under a deletion it
// keeps stays, even when something else is purged (Respond drops that data
// too, as a read reconciles; Purge is the read-time purge alone).
func TestPurgeKeepsWhatKeptDeletionsCover(t *testing.T) {
	p := replica.Partition{Key: "k",
		RangeTombstones: []replica.RangeTombstone{{Start: replica.StartAt("a"), End: replica.EndAt("b"),
			Deletion: replica.Deletion{MarkedForDeleteAt: 9, LocalDeletionTime: 50}}},
		Rows: []replica.Row{
			{Clustering: "a", Cells: []replica.Cell{{Column: "v", Value: []byte("covered"), Timestamp: 2}}},
			{Clustering: "c", Deletion: replica.Deletion{MarkedForDeleteAt: 8, LocalDeletionTime: 60},
				Cells: []replica.Cell{
					{Column: "v", Value: []byte("covered"), Timestamp: 3},
					{Column: "w", Timestamp: 1, LocalDeletionTime: 5, Tombstone: true}}}, // purged at gcBefore 10
		},
	}
	require.NoError(t, p.Validate())
	got := p.Purge(100, 10)
	want := p.Clone()
	want.Rows[1].Cells = want.Rows[1].Cells[:1]
	assert.True(t, got.Equal(want), "got %v", got)
}
