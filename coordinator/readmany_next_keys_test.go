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

// The request Next returns does not share the caller's Keys: a caller that
// reuses its list once the first page is read does not change the pages
// still to come. Shared, the list changed to a, b, a, d after the first
// page, and the second, over keys left unchecked, read a twice (a/1 and
// a/2 again, after a/2) and returned an empty key as a result.
func TestNextKeepsTheKeysOfTheCallersList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d")
		keys := []string{"a", "b", "c", "d"}
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)

		keys[1], keys[2] = "", "a"
		next.PageSize = 100
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "c", "d"}, keysOf(res))
		assert.Equal(t, []string{"a/2", "b/1", "b/2", "c/1", "c/2", "d/1", "d/2"}, manyRows(t, res))
	})
}

// Nor while the next page reads: a caller may reuse its list in another
// goroutine as soon as Next has returned, since the request Next made
// holds none of it. Sharing it as the page's own copy of the keys, the
// page read the keys the caller wrote into its list midway (x, x), not
// c and d.
func TestNextsPageDoesNotReadTheCallersListWhileItIsRefilled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d", "x")
		keys := []string{"a", "b", "c", "d"}
		refill := false
		locate := func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			if refill && k == "b" { // the caller's list, refilled while the page reads
				copy(keys, []string{"x", "x", "x", "x"})
			}
			return e.cluster.Locate(table, k)
		}
		c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(locate),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER")})
		require.NoError(t, err)
		defer c.Close()
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
			PageSize: 1, Concurrency: 1, NowInSec: now}
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)

		refill, next.PageSize = true, 100
		res, err = c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "c", "d"}, keysOf(res))
		assert.Equal(t, []string{"a/2", "b/1", "b/2", "c/1", "c/2", "d/1", "d/2"}, manyRows(t, res))
	})
}

// Next continues every key after the cut from results a caller has
// filtered (here of the keys that returned nothing), as it did when the
// results listed every key: with the results ending at the cut, it
// continued the cut key alone, and d and e were never read.
func TestNextFromFilteredResultsReadsEveryKeyLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 1, "a", "b", "c", "d", "e")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "x", "b", "c", "d", "e"}, Level: consistency.Quorum,
			PageSize: 2, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "x", "b", "c"}, keysOf(res))
		var kept []coordinator.KeyResult
		for _, r := range res {
			if r.Cut || len(r.Result.Partition.Rows) > 0 {
				kept = append(kept, r)
			}
		}
		next, more := req.Next(kept)
		require.True(t, more)
		assert.Equal(t, []string{"c", "d", "e"}, next.Keys)
	})
}
