package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// DataLimitsTest's limits (apache/cassandra, test/unit/org/apache/
// cassandra/db/filter/DataLimitsTest.java): cqlLimits(rows, perPartition)
// and their forPaging(pageSize, lastReturnedKey, lastReturnedKeyRemaining),
// where a page that ends inside a partition leaves the next page only what
// remains of that partition's limit. Its serialization and toString have
// no counterpart; their semantics do, through ReadMany and Next: over
// partitions p1 and p2 of rows 1..5, PER PARTITION LIMIT 3 with LIMIT 0
// (none) or 5, paged 1 to 4 rows at a time, returns each row once and
// never more than 3 of a partition, whichever page a partition ends in.
func TestCassandraDataLimitsForPaging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := []string{"p1", "p2"}
		for _, k := range keys {
			var rows []replica.Row
			for i := 1; i <= 5; i++ {
				ck := fmt.Sprint(i)
				rows = append(rows, replica.NewRow(ck, replica.Live("v", ck, 1)))
			}
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, rows...)))
		}
		wants := map[int][]string{
			0: {"p1/1", "p1/2", "p1/3", "p2/1", "p2/2", "p2/3"},
			5: {"p1/1", "p1/2", "p1/3", "p2/1", "p2/2"},
		}
		for limit, want := range wants {
			for pageSize := 1; pageSize <= 4; pageSize++ {
				req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
					Query: replica.Query{Limit: 3}, Limit: limit, PageSize: pageSize, NowInSec: now}
				assert.Equal(t, want, limitPagedRows(t, e, req), "LIMIT %d, pages of %d", limit, pageSize)
			}
		}
	})
}

// limitPagedRows reads req page by page and returns key/clustering of every
// row a client sees.
func limitPagedRows(t *testing.T, e *env, req coordinator.ManyRequest) []string {
	t.Helper()
	var got []string
	for range 20 {
		rs, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		for _, kr := range rs {
			require.NoError(t, kr.Err, kr.Key)
			for _, r := range kr.Result.Visible().Rows {
				got = append(got, kr.Key+"/"+r.Clustering)
			}
		}
		next, more := req.Next(rs)
		if !more {
			return got
		}
		req = next
	}
	t.Fatalf("more than 20 pages: %v", got)
	return nil
}
