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

// Ports of Cassandra's SinglePartitionPagerTest
// (test/unit/org/apache/cassandra/service/pager/SinglePartitionPagerTest.java)
// over k0 of QueryPagerTest.addData, by Request.PageSize, by Query.Limit as
// the page size, and as an IN query of k0 alone (ManyRequest), which has
// the per-partition limit a single Request lacks. Cassandra's two variants
// (the same pager, or one recreated from its serialized state) are one
// here: every page is resumed from the state's bytes, decoded and encoded
// again (recreated).

// pagerQueries are makeSliceQuery (c1 to c9, exclusive) and makeNamesQuery
// (c1 … c8): both select c1 … c8 of k0.
var pagerQueries = map[string][]replica.Slice{
	"slice": pagerSlice("c1", "c9"),
	"names": pagerNames("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"),
}

// readPages reads req page by page, with the page sizes given (the last
// repeated; 0 pages by Query.Limit), and returns each page's clusterings.
func readPages(t *testing.T, c *coordinator.Coordinator, req coordinator.Request, sizes ...int) [][]string {
	t.Helper()
	var pages [][]string
	for more := true; more; {
		require.Less(t, len(pages), 20, "paging does not end")
		req.PageSize = sizes[min(len(pages), len(sizes)-1)]
		var page []string
		page, req, more = onePage(t, c, req)
		pages = append(pages, page)
	}
	return pages
}

// sliceQueryTest, namesQueryTest and reversedSliceQueryTest: pages of 3.
func TestCassandraPagerSingleQuery(t *testing.T) {
	for name, sl := range pagerQueries {
		synctest.Test(t, func(t *testing.T) {
			e := pagerEnv(t)
			req := coordinator.Request{Table: tbl, Key: "k0", Level: consistency.One,
				Query: replica.Query{Slices: sl}, NowInSec: now}
			want := [][]string{{"c1", "c2", "c3"}, {"c4", "c5", "c6"}, {"c7", "c8"}}
			assert.Equal(t, want, readPages(t, e.c, req, 3), "%s by PageSize", name)
			req.Query.Limit = 3
			assert.Equal(t, want, readPages(t, e.c, req, 0), "%s by Query.Limit", name)

			req = coordinator.Request{Table: tbl, Key: "k0", Level: consistency.One,
				Query: replica.Query{Slices: sl, Reversed: true}, NowInSec: now}
			rev := [][]string{{"c6", "c7", "c8"}, {"c3", "c4", "c5"}, {"c1", "c2"}} // each page in clustering order
			assert.Equal(t, rev, readPages(t, e.c, req, 3), "%s reversed", name)
		})
	}
}

// manyPages reads an IN query page by page and returns each page's rows.
func manyPages(t *testing.T, c *coordinator.Coordinator, req coordinator.ManyRequest, sizes ...int) [][]string {
	t.Helper()
	var pages [][]string
	for more := true; more; {
		require.Less(t, len(pages), 40, "paging does not end")
		if len(sizes) > 0 {
			req.PageSize = sizes[min(len(pages), len(sizes)-1)]
		}
		var page []string
		page, req, more = manyPage(t, c, req)
		pages = append(pages, page)
	}
	return pages
}

// unpaged is a page size no test's data fills: Cassandra's PageSize.NONE
// under a LIMIT (without a PageSize, our Limit is the page size).
const unpaged = 1 << 20

// sliceQueryWithLimitsTest and namesQueryWithLimitsTest: LIMIT 1 PER
// PARTITION LIMIT 2, and LIMIT 2 PER PARTITION LIMIT 1, unpaged, give c1
// and end.
func TestCassandraPagerSingleQueryWithLimits(t *testing.T) {
	for name, sl := range pagerQueries {
		synctest.Test(t, func(t *testing.T) {
			e := pagerEnv(t)
			for _, l := range [][2]int{{1, 2}, {2, 1}} {
				req := inQuery([]string{"k0"}, sl, l[0], l[1], unpaged)
				assert.Equal(t, [][]string{{"k0/c1"}}, manyPages(t, e.c, req), "%s LIMIT %d PER PARTITION LIMIT %d", name, l[0], l[1])
			}
			req := coordinator.Request{Table: tbl, Key: "k0", Level: consistency.One,
				Query: replica.Query{Slices: sl, Limit: 1}, NowInSec: now}
			assert.Equal(t, [][]string{{"c1"}}, readPages(t, e.c, req, unpaged), "%s LIMIT 1", name)
		})
	}
}

// sliceQueryWithPagingInRowsTest and namesQueryWithPagingInRowsTest:
// LIMIT 10 PER PARTITION LIMIT 5, then LIMIT 5 PER PARTITION LIMIT 10, in
// pages of 3: c1 … c3, then c4 and c5, and the end.
func TestCassandraPagerSingleQueryWithPagingInRows(t *testing.T) {
	for name, sl := range pagerQueries {
		synctest.Test(t, func(t *testing.T) {
			e := pagerEnv(t)
			for _, l := range [][2]int{{10, 5}, {5, 10}} {
				req := inQuery([]string{"k0"}, sl, l[0], l[1], 3)
				assert.Equal(t, [][]string{ckRows("k0", "c1", "c2", "c3"), ckRows("k0", "c4", "c5")}, manyPages(t, e.c, req),
					"%s LIMIT %d PER PARTITION LIMIT %d", name, l[0], l[1])
			}
			req := coordinator.Request{Table: tbl, Key: "k0", Level: consistency.One,
				Query: replica.Query{Slices: sl, Limit: 5}, NowInSec: now}
			assert.Equal(t, [][]string{{"c1", "c2", "c3"}, {"c4", "c5"}}, readPages(t, e.c, req, 3), "%s LIMIT 5", name)
		})
	}
}

// sliceQueryWithTombstoneTest (CASSANDRA-6748): rows c0 … c4 inserted with
// v = null, so a row marker and a cell tombstone each, read in pages of
// one row: the marker keeps each row, and every page holds the next.
func TestCassandraPagerSingleSliceWithTombstone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		var rows []replica.Row
		for i := range 5 {
			ts := int64(i + 1)
			rows = append(rows, replica.NewRow("c"+string(rune('0'+i)), replica.Tombstone("v", ts, now-10)).
				WithLiveness(replica.Inserted(ts)))
		}
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition("k0", rows...)))
		req := coordinator.Request{Table: tbl, Key: "k0", Level: consistency.One, PageSize: 1, NowInSec: now}
		for i := range 5 {
			var page []string
			page, req, _ = onePage(t, e.c, req)
			assert.Equal(t, []string{"c" + string(rune('0'+i))}, page, "page %d", i)
		}
	})
}
