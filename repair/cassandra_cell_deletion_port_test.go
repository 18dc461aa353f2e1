package repair_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Ports of vectors of Cassandra's RowsTest, CellTest, DeletionTimeTest and
// cql3 TimestampTest (apache/cassandra, test/unit/org/apache/cassandra/...)
// not ported elsewhere.

// RowsTest.diffEmptyMerged (db/rows/RowsTest.java): the "merged" row r1
// holds only a liveness at ts1; the input r2 holds a newer liveness, a
// complex deletion of m at ts2-1, cells v, m[2], m[3], m[4] at ts2 and a
// row deletion at ts1-1. Cassandra's diff reports every cell of r2 with a
// null merged side: nothing to send r2. Here: Diff(r1, r2) is empty, and
// the merge of the two is r2 itself.
func TestRowsTestDiffEmptyMerged(t *testing.T) {
	const now1 = 1_700_000_000
	ts1 := int64(now1) * 1_000_000
	now2 := int64(now1 + 1)
	ts2 := now2 * 1_000_000
	r1 := replica.NewRow("c1").WithLiveness(replica.Inserted(ts1))
	r2 := replica.NewRow("c1",
		replica.Live("v", "\x00\x00\x00\x02", ts2),
		replica.Live("m", "\x00\x00\x00\x01", ts2).WithPath("\x00\x00\x00\x02"),
		replica.Live("m", "\x00\x00\x00\x02", ts2).WithPath("\x00\x00\x00\x03"),
		replica.Live("m", "\x00\x00\x00\x03", ts2).WithPath("\x00\x00\x00\x04"),
	).WithLiveness(replica.Inserted(ts2)).
		WithComplexDeletion("m", replica.DeletedAt(ts2-1, now2)).
		WithDeletion(replica.DeletedAt(ts1-1, now2))
	p1 := replica.NewPartition("k", r1)
	p2 := replica.NewPartition("k", r2)
	require.NoError(t, p1.Validate())
	require.NoError(t, p2.Validate())

	d, stale := repair.Diff(p1, p2)
	assert.False(t, stale, "r2 lacks nothing of r1: %v", d)
	assert.True(t, d.IsEmpty(), "diff %v", d)

	merged, err := repair.Merge(p1, p2)
	require.NoError(t, err)
	assert.True(t, merged.Equal(p2), "merge %v, want %v", merged, p2)
	d, stale = repair.Diff(merged, p1)
	assert.True(t, stale)
	assert.True(t, d.Equal(p2), "r1's repair %v, want all of r2 %v", d, p2)
}

// CellTest.testConflictingTypeEquality (db/CellTest.java): an expiring
// cell, a live one and a tombstone, all at timestamp 1, are different
// cells; the expiring one and the tombstone each win over the live one,
// and the tombstone over the expiring one (Cells.reconcile).
func TestCellTestConflictingTypeEquality(t *testing.T) {
	expiring := replica.Expiring("val", "a", 1, 1, 1)
	live := replica.Live("val", "a", 1)
	deleted := replica.Tombstone("val", 1, 1)
	for _, pair := range [][2]replica.Cell{{expiring, live}, {deleted, live}, {deleted, expiring}} {
		a, b := pair[0], pair[1]
		assert.False(t, a.Equal(b), "%v == %v", a, b)
		assert.False(t, b.Equal(a), "%v == %v", b, a)
		assert.True(t, repair.Reconcile(a, b).Equal(a), "Reconcile(%v, %v)", a, b)
		assert.True(t, repair.Reconcile(b, a).Equal(a), "Reconcile(%v, %v)", b, a)
	}
}

// DeletionTimeTest.liveDeletionShadowsNoCellAtAnyTimestamp
// (db/DeletionTimeTest.java): no deletion shadows nothing at any
// timestamp; a real one at 100 shadows 99, 100 and the least timestamp, and
// not 101. Through Merge: a row deletion at 100 keeps only the cell at 101.
func TestDeletionTimeTestLiveDeletionShadowsNoCell(t *testing.T) {
	for _, ts := range []int64{math.MinInt64, math.MinInt64 + 1, 0, math.MaxInt64} {
		assert.False(t, replica.Deletion{}.Deletes(ts), "the zero Deletion deletes %d", ts)
	}
	at100 := replica.DeletedAt(100, 1_700_000_000)
	for ts, want := range map[int64]bool{99: true, 100: true, 101: false, math.MinInt64: true} {
		assert.Equal(t, want, at100.Deletes(ts), "deletion at 100 deleting %d", ts)
	}

	cells := replica.NewPartition("k", replica.NewRow("r",
		replica.Live("a", "x", math.MinInt64+1),
		replica.Live("b", "x", 99),
		replica.Live("c", "x", 100),
		replica.Live("d", "x", 101)))
	dels := replica.NewPartition("k", replica.NewRow("r").WithDeletion(at100))
	merged, err := repair.Merge(cells, dels)
	require.NoError(t, err)
	want := replica.NewPartition("k", replica.NewRow("r", replica.Live("d", "x", 101)).WithDeletion(at100))
	assert.True(t, merged.Equal(want), "merge %v, want %v", merged, want)
	v := cells.Visible(1_700_000_000)
	require.Len(t, v.Rows, 1)
	assert.Len(t, v.Rows[0].Cells, 4, "no deletion: every cell shows, the one at the least timestamp too")
}

// TimestampTest.testNegativeTimestamps (cql3/validation/entities/
// TimestampTest.java): INSERT ... USING TIMESTAMP -42 is a write like any
// other: it shows, merges and is deleted by a later DELETE USING
// TIMESTAMP -41.
func TestTimestampTestNegativeTimestamps(t *testing.T) {
	const now = 1_700_000_000
	ins := replica.NewPartition("1", replica.NewRow("", replica.Live("v", "1", -42)).WithLiveness(replica.Inserted(-42)))
	require.NoError(t, ins.Validate())
	v := ins.Visible(now)
	require.Len(t, v.Rows, 1)
	require.Len(t, v.Rows[0].Cells, 1)
	assert.Equal(t, int64(-42), v.Rows[0].Cells[0].Timestamp, "writetime(v)")

	del := replica.NewPartition("1").WithDeletion(replica.DeletedAt(-41, now))
	merged, err := repair.Merge(ins, del)
	require.NoError(t, err)
	assert.True(t, merged.Visible(now).IsEmpty(), "deleted at -41: %v", merged)
	older := replica.NewPartition("1").WithDeletion(replica.DeletedAt(-43, now))
	merged, err = repair.Merge(ins, older)
	require.NoError(t, err)
	assert.Len(t, merged.Visible(now).Rows, 1, "a deletion at -43 leaves the write at -42: %v", merged)
}
