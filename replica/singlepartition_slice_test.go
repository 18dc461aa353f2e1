package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Ports of apache/cassandra's SinglePartitionSliceCommandTest
// (test/unit/org/apache/cassandra/db/SinglePartitionSliceCommandTest.java):
// what one replica answers to a slice command, through Command.Respond.
// Composite clusterings (c1, c2, …) of ints are int32Key of each, joined.

const spsNow = 1_000_000

func spsKey(cs ...int32) string {
	var s string
	for _, c := range cs {
		s += int32Key(c)
	}
	return s
}

func spsRespond(t *testing.T, stored replica.Partition, q replica.Query, columns []string) replica.Partition {
	t.Helper()
	cmd := replica.Command{Table: "tbl", Key: stored.Key, Query: q, Columns: columns,
		NowInSec: spsNow, GCBefore: spsNow - 864000}
	resp, err := cmd.Respond(stored)
	require.NoError(t, err)
	require.NoError(t, resp.Partition.Validate())
	return resp.Partition
}

// staticColumnsAreFiltered: INSERT (k, s, i, v) VALUES ('k', 's', 0, 'v'),
// DELETE v, then DELETE the row; a read of row 0 selecting v alone answers
// no cell: not the static s, which it does not select, nor v or the row.
func TestSinglePartitionSliceStaticColumnsAreFiltered(t *testing.T) {
	k0 := spsKey(0)
	stored := store(t,
		replica.NewPartition("k", replica.NewRow(k0, replica.Live("v", "v", 1)).
			WithLiveness(replica.Inserted(1))).WithStatic(replica.Live("s", "s", 1)),
		replica.NewPartition("k", replica.NewRow(k0, replica.Tombstone("v", 2, spsNow-2))),
		replica.NewPartition("k", replica.NewRow(k0).WithDeletion(replica.DeletedAt(3, spsNow-1))),
	)
	row0 := replica.Query{Slices: []replica.Slice{replica.PrefixSlice(k0)}}
	// SELECT * ... WHERE i = 0 is empty: the static row shows only to a
	// query of every row, which Partition.Visible does not know of.
	for _, r := range stored.Restrict(row0).Visible(spsNow).Rows {
		assert.True(t, r.Static, "SELECT * ... WHERE i = 0 shows row %q", r.Clustering)
	}

	got := spsRespond(t, stored, row0, []string{"v"})
	assert.Empty(t, got.Static.Cells, "s is not selected")
	for _, r := range got.Rows {
		assert.Empty(t, r.Cells, "row %q", r.Clustering)
	}
	assert.Empty(t, got.Visible(spsNow).Rows)
}

// staticColumnsAreReturned: INSERT (k, s) VALUES ('k1', 's'); a read of no
// row (Slices.NONE) selecting s answers the static row with s alone.
func TestSinglePartitionSliceStaticColumnsAreReturned(t *testing.T) {
	stored := replica.NewPartition("k1").WithStatic(replica.Live("s", "s", 1))
	all := spsRespond(t, stored, replica.Query{}, []string{"s"})
	assert.NotEmpty(t, all.Visible(spsNow).Rows, "SELECT s FROM tbl WHERE k = 'k1' is not empty")

	got := spsRespond(t, stored, replica.Query{Slices: []replica.Slice{}}, []string{"s"})
	require.Len(t, got.Static.Cells, 1)
	assert.Equal(t, replica.Live("s", "s", 1), got.Static.Cells[0])
	assert.Empty(t, got.Rows)
}

// testMultiSlicesCommandWithFlush / WithoutFlush: DELETE ... USING
// TIMESTAMP 5 WHERE k = 'k' AND c1 = 1, read by the six one-row slices
// (c1, c2) for c1 in 0..1, c2 in 0..2: the answer is the deletion clipped
// to each of the three slices of c1 = 1, one open-close pair each, at 5.
// (The names-filter variants have no counterpart: readpath reads slices.)
func TestSinglePartitionSliceMultiSlicesCommand(t *testing.T) {
	d := replica.DeletedAt(5, spsNow-1)
	stored := replica.NewPartition("k").WithRangeTombstones(
		replica.NewRangeTombstone(replica.StartAt(spsKey(1)), replica.PrefixEnd(spsKey(1)), d))
	var q replica.Query
	for c1 := int32(0); c1 < 2; c1++ {
		for c2 := int32(0); c2 < 3; c2++ {
			q.Slices = append(q.Slices, replica.Slice{Start: replica.StartAt(spsKey(c1, c2)), End: replica.EndAt(spsKey(c1, c2))})
		}
	}
	require.NoError(t, q.Validate())

	got := spsRespond(t, stored, q, nil)
	assert.Empty(t, got.Rows)
	require.Len(t, got.RangeTombstones, 3, "%v", got)
	for c2, rt := range got.RangeTombstones {
		k := spsKey(1, int32(c2))
		assert.Equal(t, d, rt.Deletion)
		assert.True(t, rt.Covers(k), "%v covers (1, %d)", rt, c2)
		assert.Zero(t, rt.Start.Compare(replica.StartAt(k)), "%v opens at (1, %d)", rt, c2)
		assert.Zero(t, rt.End.Compare(replica.EndAt(k)), "%v closes at (1, %d)", rt, c2)
	}
}

// sstableFiltering (CASSANDRA-14861): a range deletion read by a slice
// that holds no row answers one range tombstone, the deletion clipped to
// the slice, whatever rows lie elsewhere in the partition.
func TestSinglePartitionSliceRangeTombstoneWithoutRows(t *testing.T) {
	now := int64(spsNow)
	prefixDeleted := replica.NewPartition("100",
		replica.NewRow(spsKey(2, 2, 2), replica.Live("v", "2", 1)).WithLiveness(replica.Inserted(1)),
	).WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt(spsKey(1)), replica.PrefixEnd(spsKey(1)),
		replica.DeletedAt(2, now-1)))
	// Slice.make(Clustering(2, 3), Clustering(10, 10)): from (2, 3) to (10, 10), both included.
	sliceDeleted := replica.NewPartition("100").WithRangeTombstones(replica.NewRangeTombstone(
		replica.StartAt(spsKey(2, 3)), replica.PrefixEnd(spsKey(10, 10)), replica.DeletedAt(3, now-1)))
	tests := []struct {
		name   string
		stored replica.Partition
		prefix string
	}{
		{"c1 = 1 AND c2 = 1", prefixDeleted, spsKey(1, 1)},
		{"c1 = 1 AND c2 = 1 AND c3 = 1", prefixDeleted, spsKey(1, 1, 1)},
		{"c1 = 3 AND c2 = 2", sliceDeleted, spsKey(3, 2)},
		{"c1 = 3 AND c2 = 2 AND c3 = 2", sliceDeleted, spsKey(3, 2, 2)},
	}
	for _, tt := range tests {
		q := replica.Query{Slices: []replica.Slice{replica.PrefixSlice(tt.prefix)}}
		got := spsRespond(t, tt.stored, q, nil)
		assert.Empty(t, got.Rows, tt.name)
		if assert.Len(t, got.RangeTombstones, 1, tt.name) {
			rt := got.RangeTombstones[0]
			assert.Equal(t, tt.stored.RangeTombstones[0].Deletion, rt.Deletion, tt.name)
			assert.Zero(t, rt.Start.Compare(q.Slices[0].Start), "%s: opens at the slice: %v", tt.name, rt)
			assert.Zero(t, rt.End.Compare(q.Slices[0].End), "%s: closes at the slice: %v", tt.name, rt)
		}
	}
}

// testReadOnRangeTombstoneMarker: DELETE ... USING TIMESTAMP 10 WHERE k = 1
// AND c1 = 1 read by a point read, by c1 = 1 AND c2 = 1, by c1 = 1 and by
// the whole partition answers one range tombstone, the deletion clipped to
// the read, and nothing else.
func TestSinglePartitionSliceReadOnRangeTombstoneMarker(t *testing.T) {
	d := replica.DeletedAt(10, spsNow-1)
	stored := replica.NewPartition("1").WithRangeTombstones(
		replica.NewRangeTombstone(replica.StartAt(spsKey(1)), replica.PrefixEnd(spsKey(1)), d))
	for _, q := range []replica.Query{
		{Slices: []replica.Slice{replica.PrefixSlice(spsKey(1, 1, 1))}},
		{Slices: []replica.Slice{replica.PrefixSlice(spsKey(1, 1))}},
		{Slices: []replica.Slice{replica.PrefixSlice(spsKey(1))}},
		{},
	} {
		got := spsRespond(t, stored, q, nil)
		assert.Empty(t, got.Rows)
		assert.Empty(t, got.Static.Cells)
		if assert.Len(t, got.RangeTombstones, 1, "%v", q) {
			assert.Equal(t, d, got.RangeTombstones[0].Deletion)
		}
	}
}

// testPartitionDeletionRowDeletionTie and testPartitionDeletionRangeDeletionTie:
// the partition deleted at 10, then row c = 1 (or the rows c1 = 1) deleted
// at 10, then (1, 1) inserted at 11, held by one replica: the answer is the
// partition deletion and the row alone, without the row or range deletion
// the partition deletion ties.
func TestSinglePartitionSlicePartitionDeletionTies(t *testing.T) {
	pd := replica.DeletedAt(10, spsNow-1)
	k := spsKey(1, 1)
	inserted := replica.NewRow(k, replica.Live("v", "1", 11)).WithLiveness(replica.Inserted(11))
	tests := []struct {
		name   string
		stored replica.Partition
	}{
		{"row deletion", replica.NewPartition("1", inserted.WithDeletion(pd)).WithDeletion(pd)},
		{"range deletion", replica.NewPartition("1", inserted).WithDeletion(pd).WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt(spsKey(1)), replica.PrefixEnd(spsKey(1)), pd))},
	}
	for _, tt := range tests {
		require.NoError(t, tt.stored.Validate(), tt.name)
		got := spsRespond(t, tt.stored, replica.Query{Slices: []replica.Slice{replica.PrefixSlice(k)}}, nil)
		assert.Equal(t, pd, got.Deletion, tt.name)
		assert.Empty(t, got.RangeTombstones, "%s: %v", tt.name, got)
		if assert.Len(t, got.Rows, 1, tt.name) {
			assert.True(t, inserted.Equal(got.Rows[0]), "%s: %v", tt.name, got)
		}
	}
}
