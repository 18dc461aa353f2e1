package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's ReadCommandTest purgeGCableTombstonesBeforeCalculating-
// Digest and fullyPurgedPartitionCreatesEmptyDigest (apache/cassandra,
// test/unit/org/apache/cassandra/db/ReadCommandTest.java), on the answer's
// digest where Cassandra checks its repaired-data digest: read with
// gc_grace 600 at now, then with gc_grace 0 at now + 60. Its timestamp 0
// is 1 here (Inserted(0) is none), its 1000 is 1000.

const rcpNow = 1_700_000_000

func rcpRespond(t *testing.T, stored replica.Partition, now, gcBefore int64) (replica.Partition, replica.Response) {
	t.Helper()
	cmd := replica.Command{Table: "t", Key: stored.Key, NowInSec: now, GCBefore: gcBefore}
	data, err := cmd.Respond(stored)
	require.NoError(t, err)
	cmd.DigestOnly = true
	dig, err := cmd.Respond(stored)
	require.NoError(t, err)
	require.Equal(t, data.Partition.Digest(), dig.Digest)
	return data.Partition, dig
}

func hasDeletion(r replica.Row, now int64) bool {
	if !r.Deletion.IsLive() || len(r.ComplexDeletions) > 0 {
		return true
	}
	for _, c := range r.Cells {
		if !c.IsLive(now) {
			return true
		}
	}
	return false
}

func TestReadCommandPurgeBeforeDigest(t *testing.T) {
	inserted := replica.Inserted(1)
	stored := []replica.Partition{
		// a cell tombstone
		replica.NewPartition("key0", replica.NewRow("cc", replica.Tombstone("a", 1, rcpNow)).WithLiveness(inserted)),
		// a set overwritten: its complex deletion and two elements
		replica.NewPartition("key1", replica.NewRow("cc",
			replica.Live("c", "", 1).WithPath("element1"), replica.Live("c", "", 1).WithPath("element2")).
			WithComplexDeletion("c", replica.DeletedAt(0, rcpNow)).WithLiveness(inserted)),
		// a range deletion, and a row whose cell tombstone outlives the purge
		replica.NewPartition("key2", replica.NewRow("cc", replica.Tombstone("a", 1000, rcpNow+1000)).
			WithLiveness(replica.Inserted(1000))).WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("aa"), replica.EndAt("bb"), replica.DeletedAt(1, rcpNow))),
		// a row with a cell tombstone, and a deleted row
		replica.NewPartition("key3",
			replica.NewRow("bb", replica.Live("a", "a", 1), replica.Tombstone("b", 1, rcpNow)).WithLiveness(inserted),
			replica.NewRow("cc").WithDeletion(replica.DeletedAt(1, rcpNow))),
	}
	for _, p := range stored {
		require.NoError(t, p.Validate(), p.Key)
		before, d1 := rcpRespond(t, p, rcpNow, rcpNow-600)
		assert.False(t, before.IsEmpty(), p.Key)
		assert.NotEqual(t, replica.NewPartition(p.Key).Digest(), d1.Digest, p.Key)
		for _, r := range before.Rows {
			assert.True(t, hasDeletion(r, rcpNow) || len(before.RangeTombstones) > 0, "%s: %v", p.Key, r)
		}

		after, d2 := rcpRespond(t, p, rcpNow+60, rcpNow+60)
		assert.False(t, after.IsEmpty(), p.Key)
		assert.NotEqual(t, d1.Digest, d2.Digest, "%s: the purge changes the digest", p.Key)
		assert.Empty(t, after.RangeTombstones, p.Key)
		for _, r := range after.Rows {
			if p.Key == "key2" && r.Clustering == "cc" {
				continue // its tombstone is not yet purgeable
			}
			assert.False(t, hasDeletion(r, rcpNow+60), "%s: %v", p.Key, r)
		}
	}
}

// fullyPurgedPartitionCreatesEmptyDigest: a partition holding only a row
// deletion answers it, then once it is purgeable answers as a replica
// holding nothing does, digest included. (Its static row deletion has no
// counterpart: a static row has no row deletion here.)
func TestReadCommandFullyPurgedPartition(t *testing.T) {
	p := replica.NewPartition("key", replica.NewRow("cc").WithDeletion(replica.DeletedAt(1, rcpNow)))
	before, d1 := rcpRespond(t, p, rcpNow, rcpNow-600)
	assert.Len(t, before.Rows, 1)
	assert.NotEqual(t, replica.NewPartition("key").Digest(), d1.Digest)

	after, d2 := rcpRespond(t, p, rcpNow+60, rcpNow+60)
	assert.True(t, after.IsEmpty(), "%v", after)
	_, none := rcpRespond(t, replica.NewPartition("key"), rcpNow+60, rcpNow+60)
	assert.Equal(t, none.Digest, d2.Digest)
	assert.Zero(t, d2.Tombstones)
}
