package coordinator_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// rowsInOrder returns pk/ck of the rows a client sees in res, each key's in
// q's order, a static-only partition as pk/static.
func rowsInOrder(t *testing.T, res []coordinator.KeyResult, q replica.Query) []string {
	t.Helper()
	var got []string
	for _, r := range res {
		require.NoError(t, r.Err)
		for _, row := range inQueryOrder(r.Result, q) {
			ck := row.Clustering
			if row.Static {
				ck = "static"
			}
			got = append(got, r.Key+"/"+ck)
		}
	}
	return got
}

// pagesInOrder reads every page of req, following Next, as pagesOf does,
// with rowsInOrder.
func pagesInOrder(t *testing.T, c *coordinator.Coordinator, req coordinator.ManyRequest) [][]string {
	t.Helper()
	var pages [][]string
	for more := true; more; {
		require.Less(t, len(pages), 20, "paging does not end")
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		pages = append(pages, rowsInOrder(t, res, req.Query))
		req, more = req.Next(res)
	}
	return pages
}

// The results follow the caller's list, first occurrence of each key, not
// the keys' byte order (a CQL layer sorts an IN list as Cassandra does
// before it calls ReadMany), and LIMIT counts in that order.
func TestReadManyKeepsTheListsOrderWithoutRepeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c")
		before := e.totalReads()
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl,
			Keys: []string{"c", "a", "c", "b", "a"}, Level: consistency.One, NowInSec: now})
		require.NoError(t, err)
		assert.Equal(t, []string{"c", "a", "b"}, keysOf(res))
		settle()
		assert.Equal(t, int64(3), e.totalReads()-before, "each key read once")

		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"c", "a", "c", "b", "a"}, Level: consistency.One,
			Limit: 3, NowInSec: now}
		assert.Equal(t, [][]string{{"c/1", "c/2", "a/1"}, {"a/2", "b/1", "b/2"}}, pagesOf(t, e.c, req))
	})
}

// A LIMIT below the per-partition limit, in pages: PER PARTITION LIMIT 4
// LIMIT 7 in pages of 3 over two keys of five rows gives a's four rows,
// then b's first three, each page full, and stops at the limit.
func TestReadManyLimitBelowPerPartitionLimitInPages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 5, "a", "b")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 4}, Limit: 7, PageSize: 3, NowInSec: now}
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3"}, {"a/4", "b/1", "b/2"}, {"b/3"}}, pagesOf(t, e.c, req))

		// Without a page size, LIMIT 2 under PER PARTITION LIMIT 4 is the
		// page size, and the pages stop at each key's fourth row.
		req.Limit, req.PageSize = 2, 0
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"a/3", "a/4"}, {"b/1", "b/2"}, {"b/3", "b/4"}}, pagesOf(t, e.c, req))
	})
}

// Pages that end exactly at partition boundaries. A key whose own read
// stopped short of the page (a holds one row, b two, in a page of 3) ends
// the page uncut, and the key after it is left out unread (Cut, no rows,
// no state) and read from its start by the next page. A key that filled
// its page exactly is cut with a state, as MultiPartitionPager.state keeps
// a pager not known to be exhausted: the next page resumes it, finds
// nothing, and reads on; the last such page is empty, as Cassandra's may
// be. The LIMIT reached on a boundary ends the paging.
func TestReadManyPagesEndingAtPartitionBoundaries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 1, "a")
		seedRows(t, e, 2, "b", "c")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			PageSize: 3, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "b", "c"}, keysOf(res))
		assert.Equal(t, []bool{false, false, true}, []bool{res[0].Cut, res[1].Cut, res[2].Cut})
		assert.Nil(t, res[1].Result.PagingState)
		assert.Empty(t, res[2].Result.Partition.Rows)
		assert.Nil(t, res[2].Result.PagingState)
		assert.Equal(t, [][]string{{"a/1", "b/1", "b/2"}, {"c/1", "c/2"}}, pagesOf(t, e.c, req))

		seedRows(t, e, 2, "a")
		req.PageSize = 2
		res, err = e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		require.Equal(t, []string{"a"}, keysOf(res))
		assert.True(t, res[0].Cut)
		assert.NotNil(t, res[0].Result.PagingState)
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"b/1", "b/2"}, {"c/1", "c/2"}, nil}, pagesOf(t, e.c, req))
		req.Limit = 6
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"b/1", "b/2"}, {"c/1", "c/2"}}, pagesOf(t, e.c, req))
		req.Limit = 4
		assert.Equal(t, [][]string{{"a/1", "a/2"}, {"b/1", "b/2"}}, pagesOf(t, e.c, req))
	})
}

// Reversed, the LIMIT cuts a key after its last row in reverse order, and
// the next page resumes it before that row.
func TestReadManyReversedLimitAcrossKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a", "b")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Quorum,
			Query: replica.Query{Reversed: true}, Limit: 4, NowInSec: now}
		assert.Equal(t, [][]string{{"a/3", "a/2", "a/1", "b/3"}, {"b/2", "b/1"}}, pagesInOrder(t, e.c, req))
		req.Query.Limit, req.Limit, req.PageSize = 2, 3, 1
		assert.Equal(t, [][]string{{"a/3"}, {"a/2"}, {"b/3"}}, pagesInOrder(t, e.c, req))
	})
}

// A partition holding only static data counts as one row of the page and
// of the LIMIT when the query selects every row (Cassandra's CQLCounter
// counts it), and shows nothing to a slice, where it counts nothing.
func TestReadManyStaticOnlyPartitions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a")
		seedRows(t, e, 2, "b")
		for _, k := range []string{"s", "t"} {
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k).WithStatic(replica.Live("st", "x", 5))))
		}
		keys := []string{"s", "a", "t", "b"}
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 2, NowInSec: now}
		assert.Equal(t, [][]string{{"s/static", "a/1"}, {"a/2", "a/3"}, {"t/static", "b/1"}, {"b/2"}}, pagesInOrder(t, e.c, req))

		req.Query.Limit = 1 // PER PARTITION LIMIT 1
		assert.Equal(t, [][]string{{"s/static", "a/1"}, {"t/static", "b/1"}}, pagesInOrder(t, e.c, req))

		req = coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, Limit: 3, NowInSec: now}
		assert.Equal(t, [][]string{{"s/static", "a/1", "a/2"}, {"a/3", "t/static", "b/1"}, {"b/2"}}, pagesInOrder(t, e.c, req))

		req.Query = replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("2"), End: replica.Top()}}}
		assert.Equal(t, [][]string{{"a/2", "a/3", "b/2"}}, pagesInOrder(t, e.c, req))
	})
}

// A key whose replicas disagree is reconciled and repaired on its own; the
// keys around it, which agree, are neither: one mismatch, two repairs
// (the stale B and C), and every replica holds the newest x after.
func TestReadManyRepairsOnlyTheKeyThatDisagrees(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, k := range []string{"a", "x", "b"} {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, row(k, "old", 10)))
		}
		require.NoError(t, e.cluster.SeedOn(tbl, row("x", "new", 20), A))
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl,
			Keys: []string{"a", "x", "b"}, Level: consistency.All, NowInSec: now})
		require.NoError(t, err)
		for _, r := range res {
			require.NoError(t, r.Err, r.Key)
			assert.Equal(t, r.Key == "x", r.Result.Trace.DigestMismatch, r.Key)
			if r.Key == "x" {
				assert.ElementsMatch(t, []string{B, C}, r.Result.Trace.Repaired)
				assert.True(t, r.Result.Partition.Equal(row("x", "new", 20)))
			} else {
				assert.Empty(t, r.Result.Trace.Repaired, r.Key)
			}
		}
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.DigestMismatches)
		assert.Equal(t, int64(2), m.RepairsSent)
		assert.Equal(t, int64(2), m.RepairsAcked)
		for _, id := range []string{A, B, C} {
			assert.True(t, e.stored(t, id, "x").Equal(row("x", "new", 20)), id)
		}
	})
}

// recorder wraps a replica and records the read time of every command, by
// key.
type recorder struct {
	replica.Replica
	mu   *sync.Mutex
	seen map[string][]int64
}

func (r recorder) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	r.mu.Lock()
	r.seen[cmd.Key] = append(r.seen[cmd.Key], cmd.NowInSec, cmd.GCBefore)
	r.mu.Unlock()
	return r.Replica.Read(ctx, cmd)
}

// Every command of every key of a page, data, digest and reconcile reads
// alike, carries the page's one read time, taken when it starts, though
// the keys are read a second apart; the next page, of a request without a
// NowInSec, takes its own.
func TestReadManyOneReadTimePerPage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(time.Second)})
		}
		keys := []string{"a", "x", "b", "c"}
		for _, k := range keys {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		}
		seedRows(t, e, 1, keys...)
		require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition("x", ins("1", 20)), A)) // a mismatch
		var mu sync.Mutex
		seen := map[string][]int64{}
		c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
			Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica { return recorder{r, &mu, seen} })})
		require.NoError(t, err)
		defer c.Close()

		start := time.Now().Unix()
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.All, PageSize: 3, Concurrency: 1}
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		gc := start - 864000
		for _, k := range []string{"a", "x", "b"} {
			require.NotEmpty(t, seen[k], k)
			for i := 0; i < len(seen[k]); i += 2 {
				assert.Equal(t, []int64{start, gc}, seen[k][i:i+2], "key %s, command %d", k, i/2)
			}
		}
		assert.Len(t, seen["x"], 2*5, "x: three first-round commands, two reconcile reads")
		next, more := req.Next(res)
		require.True(t, more)
		assert.Zero(t, next.NowInSec, "the next page takes its own time")
		later := time.Now().Unix()
		require.Greater(t, later, start)
		res, err = c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"c/1"}, manyRows(t, res))
		assert.Equal(t, later, res[0].Result.NowInSec)
		assert.Equal(t, []int64{later, later - 864000}, seen["c"][len(seen["c"])-2:])
	})
}

// A per-partition limit with many keys and a small concurrency: every
// key's pages together give its first rows up to the limit, in key order,
// whatever the page size.
func TestReadManyPerPartitionLimitOverManyKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		var keys []string
		for i := range 12 {
			keys = append(keys, fmt.Sprintf("k%02d", i))
		}
		seedRows(t, e, 4, keys...)
		var want []string
		for _, k := range keys {
			want = append(want, k+"/1", k+"/2", k+"/3")
		}
		for _, size := range []int{1, 2, 3, 4, 5, 7, 36, 100} {
			req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
				Query: replica.Query{Limit: 3}, PageSize: size, Concurrency: 3, NowInSec: now}
			var got []string
			for page, more := 0, true; more; page++ {
				require.Less(t, page, 100, "paging does not end")
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				p := manyRows(t, res)
				assert.LessOrEqual(t, len(p), size)
				got = append(got, p...)
				req, more = req.Next(res)
			}
			assert.Equal(t, want, got, "page size %d", size)
		}
	})
}
