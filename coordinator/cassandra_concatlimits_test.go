package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// UnfilteredRowIteratorsTest.concatTest's "concat with CQL limits" and
// "concat concatenated iterators" (apache/cassandra, test/unit/org/apache/
// cassandra/db/rows/UnfilteredRowIteratorsTest.java): each partition
// filtered by cqlLimits(1), then concatenated, gives the first row of
// each: 1, 3, then 4 of a third partition. Here a PER PARTITION LIMIT 1
// over keys p1 (rows 1, 2), p2 (3, 4) and p3 (4, 5), by ReadMany, at each
// level, with every value written at timestamp 1 as the test's cells are;
// and again at the instant row 3 expires (DataLimits counts a row live at
// nowInSec): p2 then gives row 4.
func TestCassandraConcatWithPerPartitionLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		row := func(ck string) replica.Row {
			return replica.NewRow(ck, replica.Live("v1", ck, 1), replica.Live("v2", ck, 1))
		}
		expiring := replica.NewRow("3", replica.Expiring("v1", "3", 1, 100, now), replica.Expiring("v2", "3", 1, 100, now))
		parts := map[string]replica.Partition{
			"p1": replica.NewPartition("p1", row("1"), row("2")),
			"p2": replica.NewPartition("p2", expiring, row("4")),
			"p3": replica.NewPartition("p3", row("4"), row("5")),
		}
		keys := []string{"p1", "p2", "p3"}
		for _, k := range keys {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, parts[k]))
		}
		for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.All} {
			for at, want := range map[int64][]string{now - 1: {"1", "3", "4"}, now: {"1", "4", "4"}} {
				rs, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys,
					Level: level, Query: replica.Query{Limit: 1}, NowInSec: at})
				require.NoError(t, err)
				var got []string
				for _, kr := range rs {
					require.NoError(t, kr.Err, kr.Key)
					for _, r := range kr.Result.Visible().Rows {
						require.Len(t, r.Cells, 2, "%s row %s", kr.Key, r.Clustering)
						got = append(got, r.Clustering)
					}
				}
				assert.Equal(t, want, got, "%v at %d", level, at)
			}
		}
	})
}
