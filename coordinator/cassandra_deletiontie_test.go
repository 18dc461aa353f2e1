package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's SinglePartitionSliceCommandTest
// testPartitionDeletionRowDeletionTie and testPartitionDeletionRangeDeletionTie
// (apache/cassandra, test/unit/org/apache/cassandra/db/
// SinglePartitionSliceCommandTest.java), the multi-sstable case as three
// replicas each holding one write: the partition deleted at 10 (A), row
// c = 1 or the rows c1 = 1 deleted at 10 (B), (1, 1) inserted at 11 (C).
// A read at ALL returns the partition deletion and the row, without the
// deletion the partition deletion ties, and repairs no replica with it.
func TestPartitionDeletionTiesAcrossReplicas(t *testing.T) {
	const now = 1_700_000_000
	pd := replica.DeletedAt(10, now-1)
	k := "1" + "\x00" + "1"
	inserted := replica.NewRow(k, replica.Live("v", "1", 11)).WithLiveness(replica.Inserted(11))
	for _, tt := range []struct {
		name string
		b    replica.Partition
	}{
		{"row deletion", replica.NewPartition(key, replica.NewRow(k).WithDeletion(pd))},
		{"range deletion", replica.NewPartition(key).WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("1\x00"), replica.PrefixEnd("1\x00"), pd))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition(key).WithDeletion(pd), A))
				require.NoError(t, e.cluster.SeedOn(tbl, tt.b, B))
				require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition(key, inserted), C))
				q := replica.Query{Slices: []replica.Slice{replica.PrefixSlice(k)}}
				res, err := e.c.Read(t.Context(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: q, NowInSec: now})
				require.NoError(t, err)
				settle()
				got := res.Partition
				assert.Equal(t, pd, got.Deletion)
				assert.Empty(t, got.RangeTombstones, "%v", got)
				if assert.Len(t, got.Rows, 1) {
					assert.True(t, inserted.Equal(got.Rows[0]), "%v", got)
				}
				for _, id := range []string{A, B, C} {
					p := e.stored(t, id, key)
					assert.Equal(t, pd, p.Deletion, id)
					for _, r := range p.Rows {
						assert.True(t, r.Deletion.IsLive() || r.Deletion == pd && id == B, "%s: %v", id, p)
					}
				}
			})
		})
	}
}
