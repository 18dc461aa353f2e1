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

// Ports of cassandra-dtest paging_test.py's tests that a paged IN query
// returns each row once, whatever happens around it: a write behind its
// pages, repeated keys, other paged queries interleaved with it.

// wideKeys seeds keys, each with n rows "000" … on every replica, and
// returns those rows as key/clustering, in key order.
func wideKeys(t *testing.T, e *env, n int, keys ...string) []string {
	t.Helper()
	var want []string
	for _, k := range keys {
		var rows []replica.Row
		for i := range n {
			ck := fmt.Sprintf("%03d", i)
			rows = append(rows, insPK(ck, 1))
			want = append(want, k+"/"+ck)
		}
		require.NoError(t, e.cluster.Seed(tbl, pk(k, rows...)))
	}
	return want
}

// paging_test.py TestPagingDatasetChanges.test_data_change_impacting_-
// earlier_page: id in (1, 2) in pages of 501 over two partitions of 500
// rows; after the first page, which ends in id 2, a row is inserted into
// id 1 (at ALL): it does not sneak into the second page, which holds the
// 499 rows of id 2 left.
func TestDtestPagingDataChangeImpactingEarlierPage(t *testing.T) {
	for _, level := range []consistency.Level{consistency.All, consistency.Quorum} {
		t.Run(level.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				want := wideKeys(t, e, 500, "1", "2")
				req := coordinator.ManyRequest{Table: tbl, Keys: []string{"1", "2"}, Level: level, PageSize: 501, NowInSec: now}
				var got []string
				var lens []int
				for more := true; more; {
					require.Less(t, len(lens), 5, "paging does not end")
					res, err := e.c.ReadMany(context.Background(), req)
					require.NoError(t, err)
					rows := manyRows(t, res)
					got, lens = append(got, rows...), append(lens, len(rows))
					if len(lens) == 1 {
						require.NoError(t, e.cluster.Seed(tbl, pk("1", insPK("foo", 2))))
					}
					req, more = req.Next(res)
				}
				assert.Equal(t, []int{501, 499}, lens)
				assert.Equal(t, want, got)
			})
		})
	}
}

// paging_test.py TestPagingData.test_select_in_clause_with_duplicate_keys
// (CASSANDRA-12420): WHERE a = 1 AND b IN (2, 2, 1, 1, 1), partitions of
// three rows, in pages of 1 to 5 and unpaged: each row once. (Cassandra
// reads an IN list sorted and without repeats; ReadMany drops the
// repeats and keeps the order, so the keys come sorted, as a CQL layer
// passes them.)
func TestDtestPagingINWithRepeatedKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		wideKeys(t, e, 3, "1:0", "2:1", "2:2") // other partitions, not read
		want := wideKeys(t, e, 3, "1:1", "1:2")
		keys := []string{"1:1", "1:1", "1:1", "1:2", "1:2"}
		for size := range 6 {
			req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, PageSize: size, NowInSec: now}
			var got []string
			for more := true; more; {
				require.Less(t, len(got), 10, "page size %d: paging does not end", size)
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				got = append(got, manyRows(t, res)...)
				req, more = req.Next(res)
			}
			assert.Equal(t, want, got, "page size %d", size)
		}
	})
}

// paging_test.py TestPagingQueryIsolation.test_query_isolation, scaled
// down (partitions of 50 rows, pages a hundredth of the dtest's): eleven paged
// IN queries, of one partition each or of all ten, each with its own page
// size, read a page each in turn, twice, then each to its end: every one
// returns its own rows, in the dtest's count of pages.
func TestDtestPagingQueryIsolation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		var keys []string
		rows := map[string][]string{}
		for i := range 10 {
			k := fmt.Sprint(i + 1)
			keys = append(keys, k)
			rows[k] = wideKeys(t, e, 50, k)
		}
		type query struct {
			req       coordinator.ManyRequest
			want, got []string
			done      bool
			pages     int
		}
		var qs []*query
		for i, size := range []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15} {
			in := []string{keys[i%5]}
			if i == 10 {
				in = keys
			}
			q := &query{req: coordinator.ManyRequest{Table: tbl, Keys: in, Level: consistency.All,
				PageSize: size, NowInSec: now}}
			for _, k := range in {
				q.want = append(q.want, rows[k]...)
			}
			qs = append(qs, q)
		}
		page := func(q *query) {
			if q.done {
				return
			}
			res, err := e.c.ReadMany(context.Background(), q.req)
			require.NoError(t, err)
			if got := manyRows(t, res); len(got) > 0 { // the dtest's PageFetcher counts these
				q.got, q.pages = append(q.got, got...), q.pages+1
			}
			var more bool
			q.req, more = q.req.Next(res)
			q.done = !more
		}
		for range 2 {
			for _, q := range qs {
				page(q)
			}
		}
		for _, q := range qs {
			for n := 0; !q.done; n++ {
				require.Less(t, n, 50, "paging does not end")
				page(q)
			}
		}
		for i, pages := range []int{10, 9, 8, 7, 6, 5, 5, 5, 4, 4, 34} {
			assert.Equal(t, pages, qs[i].pages, "query %d: pages", i)
			assert.Equal(t, qs[i].want, qs[i].got, "query %d: rows", i)
		}
	})
}
