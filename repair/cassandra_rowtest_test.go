package repair_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's RowTest (apache/cassandra, test/unit/org/apache/
// cassandra/db/RowTest.java, of the ColumnFamily era; testDiffSuperColumn
// has no counterpart). Its deletions made at local time 0 are made at 1
// here: DeletedAt(0, 0) is readpath's "not deleted".

// testDiffColumnFamily: cf1 holds "one" at timestamp 0, cf2 a deletion
// at 0. What cf1 lacks is the deletion alone: it removes "one", written
// at its timestamp, so the merge holds no cell to send.
func TestRowTestDiffColumnFamily(t *testing.T) {
	cf1 := replica.NewPartition("k", replica.NewRow("r", replica.Live("one", "onev", 0)))
	cf2 := replica.NewPartition("k").WithDeletion(replica.DeletedAt(0, 1))
	merged, err := repair.Merge(cf1, cf2)
	require.NoError(t, err)
	diff, stale := repair.Diff(merged, cf1)
	require.True(t, stale)
	assert.True(t, cf2.Equal(diff), "got %v", diff)
	_, stale = repair.Diff(merged, cf2)
	assert.False(t, stale, "cf2 lacks nothing: its deletion covers cf1's cell")
}

// testResolve: {one: A@0} and {one: B@1, two: C@1} resolve to one = B,
// two = C.
func TestRowTestResolve(t *testing.T) {
	cf1 := replica.NewPartition("k", replica.NewRow("r", replica.Live("one", "A", 0)))
	cf2 := replica.NewPartition("k", replica.NewRow("r", replica.Live("one", "B", 1), replica.Live("two", "C", 1)))
	merged, err := repair.Merge(cf1, cf2)
	require.NoError(t, err)
	assert.True(t, cf2.Equal(merged), "got %v", merged)
}

// testExpiringColumnExpiration: a cell with a TTL of 1 s is live when
// written and, two seconds on, marked for delete at its own timestamp
// (0): the tombstone it is read as, which wins over a live write of that
// timestamp that another replica may hold (Cells.reconcile).
func TestRowTestExpiringColumnExpiration(t *testing.T) {
	const written = 1_700_000_000
	c := replica.Expiring("one", "A", 0, 1, written+1)
	p := replica.NewPartition("k", replica.NewRow("r", c))
	assert.True(t, c.IsLive(written))
	purged := p.Purge(written+2, written-864000)
	want := replica.NewPartition("k", replica.NewRow("r", replica.Tombstone("one", 0, written)))
	require.True(t, want.Equal(purged), "got %v", purged)
	merged, err := repair.Merge(purged, replica.NewPartition("k", replica.NewRow("r", replica.Live("one", "A", 0))))
	require.NoError(t, err)
	assert.True(t, want.Equal(merged), "got %v", merged)
}
