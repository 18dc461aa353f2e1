package coordinator_test

import (
	"context"
	"strconv"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Ports of the parts of Cassandra's PartitionRangeReadTest (apache/
// cassandra, test/unit/org/apache/cassandra/db/PartitionRangeReadTest.java)
// that a read of listed keys can express: ReadMany over the keys stands
// for the range read. testCassandra6778 (two encodings of one integer) is
// the embedder's clustering encoding here, and the range-command,
// concurrency-factor and merger tests have no counterpart.

// prrKeys seeds keys "0".."n-1" on A, B and C with rows(i).
func prrKeys(t *testing.T, e *env, n int, rows func(i int) replica.Partition) []string {
	t.Helper()
	var keys []string
	for i := range n {
		k := strconv.Itoa(i)
		keys = append(keys, k)
		require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		require.NoError(t, e.cluster.Seed(tbl, rows(i)))
	}
	return keys
}

// prrLive returns the keys of rs that a client sees a row of.
func prrLive(t *testing.T, rs []coordinator.KeyResult) []string {
	t.Helper()
	var live []string
	for _, kr := range rs {
		require.NoError(t, kr.Err, kr.Key)
		if len(kr.Result.Visible().Rows) > 0 {
			live = append(live, kr.Key)
		}
	}
	return live
}

// testLimits: ten partitions, each with a static val and a row column1
// whose value is empty, written at timestamp 0 (so without liveness here:
// the row lives by its empty value alone); LIMIT i returns i partitions.
func TestPartitionRangeReadLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := prrKeys(t, e, 10, func(i int) replica.Partition {
			return replica.NewPartition(strconv.Itoa(i), replica.NewRow("column1", replica.Live("value", "", 0))).
				WithStatic(replica.Live("val", "abcd", 0))
		})
		for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.All} {
			for limit := range 11 {
				rs, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys,
					Level: level, Limit: limit})
				require.NoError(t, err)
				want := limit
				if limit == 0 {
					want = 10 // no limit
				}
				assert.Len(t, prrLive(t, rs), want, "%v LIMIT %d", level, limit)
			}
		}
	})
}

// testInclusiveBounds: rows cc1 of key1 and cc2 of key2, read by the slice
// from cc1 to cc2 inclusive, give both partitions.
func TestPartitionRangeReadInclusiveBounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for i, ck := range []string{"cc1", "cc2"} {
			k := "key" + strconv.Itoa(i+1)
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, replica.NewRow(ck, replica.Live("val", "asdf", 1)))))
		}
		q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("cc1"), End: replica.EndAt("cc2")}}}
		rs, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"key1", "key2"},
			Level: consistency.Quorum, Query: q})
		require.NoError(t, err)
		assert.Equal(t, []string{"key1", "key2"}, prrLive(t, rs))
	})
}
