package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// pagesOf reads every page of req, following Next, and returns each page's
// rows as key/clustering.
func pagesOf(t *testing.T, c *coordinator.Coordinator, req coordinator.ManyRequest) [][]string {
	t.Helper()
	var pages [][]string
	for more := true; more; {
		require.Less(t, len(pages), 20, "paging does not end")
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		pages = append(pages, manyRows(t, res))
		req, more = req.Next(res)
	}
	return pages
}

// keysOf returns the keys of results, in order.
func keysOf(results []coordinator.KeyResult) []string {
	keys := make([]string, len(results))
	for i, r := range results {
		keys[i] = r.Key
	}
	return keys
}

// seedRows seeds keys with the rows 1 … n on every replica.
func seedRows(t *testing.T, e *env, n int, keys ...string) {
	t.Helper()
	var rows []replica.Row
	for i := range n {
		rows = append(rows, ins(fmt.Sprint(i+1), 1))
	}
	for _, k := range keys {
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, rows...)))
	}
}

// PER PARTITION LIMIT 3 in pages of 4 over three partitions of five rows:
// every key gives its three rows, a cut key's next page resumes after its
// last row, and no page goes past a key's three. Paging states that ignored
// the per-partition limit gave a a state past row 3, and b rows 2, 3 and 4
// after its row 1.
func TestReadManyPagesStopAtThePerPartitionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 5, "a", "b", "c")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 3}, Limit: 4, NowInSec: now}
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3", "b/1"}, {"b/2", "b/3", "c/1", "c/2"}, {"c/3"}}, pagesOf(t, e.c, req))

		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		assert.Nil(t, res[0].Result.PagingState, "a reached its per-partition limit")

		req.Limit = 0
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3", "b/1", "b/2", "b/3", "c/1", "c/2", "c/3"}}, pagesOf(t, e.c, req))
		res, err = e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		for _, r := range res {
			assert.Nil(t, r.Result.PagingState, "%s reached its per-partition limit", r.Key)
		}
	})
}

// Pages of an IN query reach every row of every key: the keys after the
// one a page cut are read by the next page, from their start. A page that
// ends full carries on, as a full page of one partition does: the last
// page finds nothing.
func TestReadManyPagesReachEveryKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a", "b", "c")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum, Limit: 3, NowInSec: now}
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3"}, {"b/1", "b/2", "b/3"}, {"c/1", "c/2", "c/3"}, nil}, pagesOf(t, e.c, req))
		req.Limit = 2
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"a/3", "b/1"}, {"b/2", "b/3"}, {"c/1", "c/2"}, {"c/3"}}, pagesOf(t, e.c, req))
	})
}

// A key's pages under a per-partition limit above the page size stop at
// that limit.
func TestReadManyPagesOfACutKeyCountTowardsItsLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 9, "a")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 5}, Limit: 2, NowInSec: now}
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"a/3", "a/4"}, {"a/5"}}, pagesOf(t, e.c, req))
	})
}

// LIMIT 5 in pages of 2, then of 3, over three keys of three rows: five
// rows in all; PER PARTITION LIMIT 2 in pages of 3, without a limit: two
// rows of every key.
func TestReadManyPageSize(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a", "b", "c")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			Limit: 5, PageSize: 2, NowInSec: now}
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"a/3", "b/1"}, {"b/2"}}, pagesOf(t, e.c, req))

		first, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(first)
		require.True(t, more)
		assert.Equal(t, 3, next.Limit, "what the first page left")
		next.PageSize = 3
		res, err := e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a/3", "b/1", "b/2"}, manyRows(t, res))
		_, more = next.Next(res)
		assert.False(t, more, "the limit is reached")

		// A page size dropped after the first page leaves the LIMIT a
		// total, as a single-partition read's state does (found by review:
		// the 3 left became a page size, and the pages read every row).
		next, _ = req.Next(first)
		next.PageSize = 0
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a/3", "b/1", "b/2"}, manyRows(t, res))
		_, more = next.Next(res)
		assert.False(t, more, "the limit is reached")

		req = coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 2}, PageSize: 3, NowInSec: now}
		assert.Equal(t, [][]string{{"a/1", "a/2", "b/1"}, {"b/2", "c/1", "c/2"}}, pagesOf(t, e.c, req))
		req.PageSize = -1
		_, err = e.c.ReadMany(context.Background(), req)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
	})
}

// A paging state that is not the first key's is the request's error.
func TestReadManyRefusesAnotherPagingState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a", "b")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Quorum, Limit: 2, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)
		require.Equal(t, []string{"a", "b"}, next.Keys)
		next.Keys = []string{"b", "a"}
		_, err = e.c.ReadMany(context.Background(), next)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
		assert.ErrorIs(t, err, replica.ErrInvalidPagingState)
		next.Keys, next.PagingState = []string{"a", "b"}, []byte("garbage")
		_, err = e.c.ReadMany(context.Background(), next)
		assert.ErrorIs(t, err, replica.ErrInvalidPagingState)
	})
}

// inQueryOrder returns the rows res shows in q's order: a partition holds
// its rows in clustering order.
func inQueryOrder(res coordinator.Result, q replica.Query) []replica.ViewRow {
	rows := res.Visible().Rows
	if q.Reversed {
		slices.Reverse(rows)
	}
	return rows
}

// For random partitions, queries, per-partition limits, limits and page
// sizes (changed from page to page), the pages of an IN query, followed
// with Next to the end, return each key's rows exactly as reading it alone
// under its per-partition limit does, in key order, up to the limit when
// pages have their own size; no page holds more rows than its size.
func TestReadManyPagingHonoursBothLimits(t *testing.T) {
	cl, c := propertyCoordinator(t, policy(t, "NEVER"))
	g := newPageGen(false)
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		req := coordinator.ManyRequest{Table: tbl, Level: consistency.All, Query: g.query(t), Columns: g.columns(t),
			Limit: rapid.IntRange(0, 8).Draw(t, "limit"), NowInSec: now}
		pageManyAgainstWhole(t, c, cl, req, fmt.Sprint("many", n), 4, func(k string) []replica.Partition {
			return g.versions(t, k, 3)
		})
	})
}

// pageManyAgainstWhole seeds one to maxKeys keys, named from prefix, with
// the replicas' versions of each, then pages through req over them with
// Next (a page size drawn for every page, perhaps dropped after the first,
// or none) and checks that the pages hold each key's rows as reading it
// alone under its per-partition limit does, in key order, up to the limit
// under a page size, and that no page holds more rows than its size.
func pageManyAgainstWhole(t *rapid.T, c *coordinator.Coordinator, cl *replicatest.Cluster, req coordinator.ManyRequest,
	prefix string, maxKeys int, versions func(key string) []replica.Partition) {
	sized := rapid.Bool().Draw(t, "page size")
	var want, got []string
	for i := range rapid.IntRange(1, maxKeys).Draw(t, "keys") {
		k := fmt.Sprint(prefix, "/", i)
		req.Keys = append(req.Keys, k)
		vs := versions(k)
		for j, r := range cl.Replicas() {
			require.NoError(t, r.Seed(tbl, vs[j]))
		}
		rows, _ := wholeRead(t, vs, coordinator.Request{Query: req.Query, Columns: req.Columns})
		if pp := req.Query.Limit; pp > 0 && len(rows) > pp {
			rows = rows[:pp]
		}
		want = append(want, keyed(k, rows)...)
	}
	if sized && req.Limit > 0 && len(want) > req.Limit {
		want = want[:req.Limit]
	}
	for page, more := 0, true; more; page++ {
		require.Less(t, page, 100, "paging does not end")
		size := req.Limit
		if sized {
			// After the first page the size may be dropped: Limit stays
			// the total's, and the page reads what it leaves.
			smallest := 1
			if page > 0 {
				smallest = 0
			}
			req.PageSize = rapid.IntRange(smallest, 5).Draw(t, "size")
			size = req.PageSize
			if req.Limit > 0 && (size == 0 || size > req.Limit) {
				size = req.Limit
			}
		}
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		rows := 0
		for _, r := range res {
			require.NoError(t, r.Err)
			v := inQueryOrder(r.Result, req.Query)
			rows += len(v)
			got = append(got, keyed(r.Key, v)...)
		}
		require.True(t, size == 0 || rows <= size, "page %d: %d rows in a page of %d", page, rows, size)
		req, more = req.Next(res)
	}
	require.Equal(t, want, got)
}

// keyed writes each row of key k as k/clustering=row, for comparing rows
// with their content across keys.
func keyed(k string, rows []replica.ViewRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%s/%q=%v", k, r.Clustering, r))
	}
	return out
}

// A page stops reading keys once the keys before hold its rows: 50 keys
// of one row in pages of 10, 5 at a time, read each key once, and each of
// the first four pages at most 4 keys past it, the reads in flight when it
// filled (at most 66 replica reads at ONE), where reading every key left
// on every page read 150.
func TestReadManyPagesReadEachKeyOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(1)))
		}
		var keys []string
		for i := range 50 {
			keys = append(keys, fmt.Sprintf("k%02d", i))
		}
		seedRows(t, e, 1, keys...)
		before := e.totalReads()
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, PageSize: 10, Concurrency: 5, NowInSec: now}
		pages := pagesOf(t, e.c, req)
		require.Len(t, pages, 5)
		var got []string
		for _, p := range pages {
			assert.Len(t, p, 10)
			got = append(got, p...)
		}
		for i, k := range keys {
			assert.Equal(t, k+"/1", got[i])
		}
		assert.LessOrEqual(t, e.totalReads()-before, int64(66))
	})
}

// A key that fails before a page's cut is not read again by the next page
// (its error is in its KeyResult); one after the cut is, as are the others
// after it; a key listed twice is read once in all.
func TestReadManyNextAroundFailedKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "c", "d")
		failing := map[string]bool{"b": true}
		loc := coordinator.LocatorFunc(func(table, key string) ([]replica.Replica, consistency.Replication, error) {
			if failing[key] {
				return nil, consistency.Replication{}, fmt.Errorf("no ring for %q", key)
			}
			return e.cluster.Locate(table, key)
		})
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: e.cluster, DefaultTable: policy(t, "NEVER")})
		require.NoError(t, err)
		defer c.Close()

		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "a", "d"}, Level: consistency.Quorum, PageSize: 3, NowInSec: now}
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "b", "c"}, keysOf(res), "the results end at the key cut")
		assert.ErrorContains(t, res[1].Err, "no ring")
		next, more := req.Next(res)
		require.True(t, more)
		assert.Equal(t, []string{"c", "d"}, next.Keys, "b failed before the cut")

		req.Keys, req.PageSize = []string{"a", "b", "c"}, 2
		res, err = c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		assert.Equal(t, []string{"a/1", "a/2"}, manyRows(t, res))
		next, more = req.Next(res)
		require.True(t, more)
		assert.Equal(t, []string{"a", "b", "c"}, next.Keys, "b is after the cut")
		failing["b"] = false
		res, err = c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"c/1", "c/2"}, manyRows(t, res), "a is done, b holds nothing")
	})
}

// Next's keys are not checked for repeats again, but keys a caller changes
// after Next are: a page over keys replaced with repeats reads each once,
// and one over an empty key is refused.
func TestReadManyChecksKeysChangedAfterNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum, PageSize: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)
		require.Equal(t, []string{"a", "b", "c"}, next.Keys, "a, cut after its row 1, and the keys after it")

		next.Keys = []string{"a", "c", "a", "c"}
		next.PageSize = 10
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "c"}, keysOf(res))
		assert.Equal(t, []string{"a/2", "c/1", "c/2"}, manyRows(t, res))

		next.Keys = []string{"a", ""}
		_, err = e.c.ReadMany(context.Background(), next)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
	})
}
