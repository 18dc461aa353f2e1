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

// Row-paging ports of Cassandra's byte-paging tests
// (test/unit/org/apache/cassandra/service/pager/BytePagingExpiredLivenessTest.java
// and BytePagingStaticColumnsTest.java): readpath pages by rows only, so
// what carries over is the guarantee behind each, that a page counting rows
// differently from the replica neither ends the read early nor drops data.

// expiredLivenessRows is testExpiredRowLivenessDoesNotExhaustPager's
// partition: rows 000 … 099, each INSERT (pk, ck, a) VALUES (0, ck, 0)
// USING TTL 60 at ts, then UPDATE SET b = ck at ts+1; ttl 0 is
// testLiveRowLivenessPagesThroughAllRows' INSERT without a TTL.
func expiredLivenessRows(ttl int32, written int64) (replica.Partition, []string) {
	var rows []replica.Row
	var cks []string
	for i := range 100 {
		ck, ts := fmt.Sprintf("%03d", i), int64(2*i+1)
		a, l := replica.Live("a", "0", ts), replica.Inserted(ts)
		if ttl > 0 {
			a, l = replica.Expiring("a", "0", ts, ttl, written+int64(ttl)), replica.InsertedWithTTL(ts, ttl, written+int64(ttl))
		}
		rows = append(rows, replica.NewRow(ck, a, replica.Live("b", fmt.Sprint(i), ts+1)).WithLiveness(l))
		cks = append(cks, ck)
	}
	return replica.NewPartition("0", rows...), cks
}

// testExpiredRowLivenessDoesNotExhaustPager and
// testLiveRowLivenessPagesThroughAllRows: read an hour after the writes
// (the TTL's row markers expired, within gc_grace), in pages of 10 rows,
// every row is live through b and comes back once, in order; by Read and
// by an IN query of the one key, at ONE and at ALL.
func TestCassandraPagerExpiredLivenessPagesThroughAllRows(t *testing.T) {
	for _, ttl := range []int32{60, 0} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
			p, want := expiredLivenessRows(ttl, now-3600)
			require.NoError(t, e.cluster.Seed(tbl, p))
			for _, level := range []consistency.Level{consistency.One, consistency.All} {
				req := coordinator.Request{Table: tbl, Key: "0", Level: level, NowInSec: now}
				var got []string
				for _, page := range readPages(t, e.c, req, 10) {
					got = append(got, page...)
				}
				assert.Equal(t, want, got, "TTL %d at %v by Read", ttl, level)

				in := inQuery([]string{"0"}, nil, 0, 0, 10)
				in.Level = level
				got = nil
				for _, page := range manyPages(t, e.c, in) {
					got = append(got, page...)
				}
				assert.Equal(t, ckRows("0", want...), got, "TTL %d at %v by ReadMany", ttl, level)
			}
		})
	}
}

// staticValue is BytePagingStaticColumnsTest's STATIC_VALUE.
var staticValue = string(make([]byte, 1024))

// staticPartitions is createStaticPartitions: pk 0, 1, 2 with s set,
// and, with regular, INSERT (pk, ck, v) VALUES (pk, 0, pk) each.
func staticPartitions(t *testing.T, e *env, regular bool) {
	t.Helper()
	for pk := range 3 {
		p := replica.NewPartition(fmt.Sprint(pk)).WithStatic(replica.Live("s", staticValue, 1))
		if regular {
			p.Rows = []replica.Row{replica.NewRow("0", replica.Live("v", fmt.Sprint(pk), 2)).WithLiveness(replica.Inserted(2))}
		}
		require.NoError(t, e.cluster.Seed(tbl, p))
	}
}

// staticPayloadCountsWithRegularRows, in rows: SELECT * WHERE pk IN (0, 1,
// 2) in pages of one row returns one partition a page, each with its static
// s and (once regular rows exist) its row 0 of v = pk, every partition
// once, in at most three pages and an empty last one. Before the regular
// rows, the test pages by bytes only; in rows a partition of static data
// alone counts as one row (Cassandra's DataLimits), so the same holds.
func TestCassandraPagerStaticPayloadCountsWithRegularRows(t *testing.T) {
	for _, regular := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
			staticPartitions(t, e, regular)
			req := inQuery([]string{"0", "1", "2"}, nil, 0, 0, 1)
			var returned []string
			for page, more := 0, true; more; page++ {
				require.LessOrEqual(t, page, 3, "three partitions and at most one empty last page")
				res, err := e.c.ReadMany(t.Context(), req)
				require.NoError(t, err)
				var keys []string
				for _, r := range res {
					require.NoError(t, r.Err)
					v := r.Result.Visible()
					if len(v.Rows) > 0 {
						keys = append(keys, r.Key)
						assert.Equal(t, []replica.Cell{replica.Live("s", staticValue, 1)}, v.Static, "pk %s", r.Key)
						want := []replica.ViewRow{{Static: true}}
						if regular {
							want = []replica.ViewRow{{Clustering: "0", Cells: []replica.Cell{replica.Live("v", r.Key, 2)}}}
						}
						assert.Equal(t, want, v.Rows, "pk %s", r.Key)
					}
					if r.Cut {
						break
					}
				}
				req, more = req.Next(res)
				if len(keys) == 0 {
					assert.False(t, more, "an empty page ends the read")
				} else {
					assert.Len(t, keys, 1, "partitions in page %d", page)
				}
				returned = append(returned, keys...)
			}
			assert.Equal(t, []string{"0", "1", "2"}, returned, "regular rows %v", regular)
		})
	}
}

// countersIncludeStaticBytesOnceOnResumedPages, in rows: pk 0 with its
// static s and rows 0 … 5, SELECT * WHERE pk = 0 AND ck > 1 in pages of two
// rows gives 2 and 3, then 4 and 5, with s on each page (a resumed
// partition still shows its static data) and the static data never counted
// as a row of its own.
func TestCassandraPagerStaticOnResumedPages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		p := replica.NewPartition("0").WithStatic(replica.Live("s", staticValue, 1))
		for ck := range 6 {
			p.Rows = append(p.Rows, replica.NewRow(fmt.Sprint(ck), replica.Live("v", fmt.Sprint(ck), 2)).WithLiveness(replica.Inserted(2)))
		}
		require.NoError(t, e.cluster.Seed(tbl, p))
		q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAfter("1"), End: replica.Top()}}}
		req := coordinator.Request{Table: tbl, Key: "0", Level: consistency.One, Query: q, PageSize: 2, NowInSec: now}
		var pages [][]string
		for more := true; more; {
			require.Less(t, len(pages), 5)
			res, err := e.c.Read(t.Context(), req)
			require.NoError(t, err)
			v := res.Visible()
			if len(v.Rows) > 0 {
				assert.Equal(t, []replica.Cell{replica.Live("s", staticValue, 1)}, v.Static, "page %d", len(pages))
			}
			pages = append(pages, clusterings(res))
			req.PagingState, more = recreated(t, res.PagingState), res.PagingState != nil
		}
		require.GreaterOrEqual(t, len(pages), 2)
		assert.Equal(t, [][]string{{"2", "3"}, {"4", "5"}}, pages[:2])
		for _, extra := range pages[2:] {
			assert.Empty(t, extra, "a full last page may lead to an empty one, as in Cassandra")
		}
	})
}
