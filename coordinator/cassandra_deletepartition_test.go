package coordinator_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Port of Cassandra's DeletePartitionTest.testDeletePartition (apache/
// cassandra, test/unit/org/apache/cassandra/db/DeletePartitionTest.java):
// a row written at timestamp 0 (RowUpdateBuilder's, liveness included,
// which readpath cannot express at 0: Inserted(0) is none) and the
// partition deleted at the same timestamp 0 read back with the deletion
// and no row. Its flush variants are here which replicas got the
// deletion: all, two, one; each read at ALL, then each replica on its own.
func TestDeletePartitionAtTheWritesTimestamp(t *testing.T) {
	write := replica.NewPartition(key, replica.NewRow("Column1", replica.Live("val", "asdf", 0)))
	deleted := write.WithDeletion(replica.DeletedAt(0, now))
	for n, got := range [][]string{{A, B, C}, {A, B}, {A}} {
		t.Run(fmt.Sprintf("deleted on %d", 3-n), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				require.NoError(t, e.cluster.Seed(tbl, write))
				require.NoError(t, e.cluster.SeedOn(tbl, deleted, got...))

				res, _, err := e.read(consistency.All)
				require.NoError(t, err)
				settle()
				assert.False(t, res.Partition.Deletion.IsLive(), "the partition deletion is read")
				assert.Empty(t, res.Partition.Rows)
				assert.True(t, res.Visible().IsEmpty(), "%v", res.Visible())
				for _, id := range []string{A, B, C} {
					p := e.stored(t, id, key)
					assert.Equal(t, replica.DeletedAt(0, now), p.Deletion, "%s after the read", id)
					assert.True(t, p.Visible(now).IsEmpty(), "%s after the read: %v", id, p)
				}
			})
		})
	}
}
