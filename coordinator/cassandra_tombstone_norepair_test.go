package coordinator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Port of Cassandra's testRangeSliceQueryWithTombstones (apache/cassandra,
// test/distributed/org/apache/cassandra/distributed/test/ReadRepairTest.java,
// from read_repair_test.py; CASSANDRA-8989, CASSANDRA-9502), per partition:
// rows (k, 0..9) inserted in partitions 0 to 9, partitions 5 to 14 deleted,
// rows c < 5 deleted in partitions 2 to 6 and 12 to 16, all written to every
// replica. A holds the writes as they came, the deleted data still stored
// under its deletions (its memtable); B and C hold them merged (flushed and
// compacted). Reads at ALL (A answers each) of each partition, of each row
// and of the rows after and before each find no mismatch and repair nothing.
func TestCassandraTombstonesNoReadRepair(t *testing.T) {
	cl := instantCluster(t)
	opts := policy(t, "NEVER")
	opts.ReadRepair = repair.Blocking
	c, err := coordinator.New(coordinator.Config{Liveness: cl, Locator: cl, DefaultTable: opts})
	require.NoError(t, err)
	defer c.Close()
	const at = now - 100
	differ := 0
	for k := range 17 {
		var raw replica.Partition // the writes in the order they came, nothing dropped
		raw.Key = fmt.Sprint("k", k)
		for ck := range 10 {
			if k < 10 {
				raw.Rows = append(raw.Rows, replica.NewRow(fmt.Sprint(ck), replica.Live("v", fmt.Sprint(k*ck), 1)).WithLiveness(replica.Inserted(1)))
			}
		}
		if k >= 5 && k < 15 {
			raw.Deletion = replica.DeletedAt(2, at)
		}
		if k >= 2 && k < 7 || k >= 12 && k < 17 {
			for ck := range 5 {
				if k >= 10 {
					raw.Rows = append(raw.Rows, replica.NewRow(fmt.Sprint(ck)))
				}
				raw.Rows[ck].Deletion = replica.DeletedAt(3, at)
			}
		}
		require.NoError(t, raw.Validate(), "k%d", k)
		compacted, err := repair.Merge(raw)
		require.NoError(t, err)
		if !raw.Equal(compacted) {
			differ++
		}
		reps := cl.Replicas()
		require.NoError(t, reps[0].Seed(tbl, raw))
		require.NoError(t, reps[1].Seed(tbl, compacted))
		require.NoError(t, reps[2].Seed(tbl, compacted))

		queries := []replica.Query{{}}
		for ck := range 10 {
			c := fmt.Sprint(ck)
			queries = append(queries,
				replica.Query{Slices: []replica.Slice{{Start: replica.StartAt(c), End: replica.EndAt(c)}}},
				replica.Query{Slices: []replica.Slice{{Start: replica.StartAfter(c), End: replica.Top()}}},
				replica.Query{Slices: []replica.Slice{{Start: replica.Bottom(), End: replica.EndBefore(c)}}})
		}
		for _, q := range queries {
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: raw.Key, Level: consistency.All, Query: q, NowInSec: now})
			require.NoError(t, err)
			assert.False(t, res.Trace.DigestMismatch, "k%d %v", k, q)
		}
	}
	assert.Equal(t, 8, differ, "partitions A holds with deleted data still under its deletions")
	m := c.Metrics().Total
	assert.Zero(t, m.DigestMismatches)
	assert.Zero(t, m.RepairsSent)
}
