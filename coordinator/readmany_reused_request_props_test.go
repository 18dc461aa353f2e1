package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A request Next made, after zero to three pages, that the caller edits for
// a new query (other keys, in a new list or refilled in place, no state,
// another Limit, any PageSize) reads the pages a request built afresh with
// the same fields reads: nothing of the old pages carries over.
func TestReadManyReusedRequestReadsAsAFreshOne(t *testing.T) {
	cl, c := propertyCoordinator(t, policy(t, "NEVER"))
	e := &env{c: c, cluster: cl}
	seedRows(t, e, 3, "a", "b", "c", "d")
	rapid.Check(t, func(rt *rapid.T) {
		all := []string{"a", "b", "c", "d", "e"}
		req, _ := pagedManyRequest(rt, e, all, 1, 8, 0, 0)
		// The caller's edits. Its Limit differs from the one Next left: on
		// the keys and state Next left, that Limit is Next's request.
		newKeys := rapid.SliceOfN(rapid.SampledFrom(all), 1, 5).Draw(rt, "keys2")
		oldLimit := req.Limit
		if rapid.Bool().Draw(rt, "inplace") {
			req.Keys = append(req.Keys[:0], newKeys...)
		} else {
			req.Keys = newKeys
		}
		req.PagingState = nil
		req.Limit = rapid.IntRange(0, 8).Draw(rt, "limit2")
		if req.Limit == oldLimit {
			req.Limit++
		}
		req.PageSize = rapid.IntRange(0, 4).Draw(rt, "ps2")
		fresh := coordinator.ManyRequest{Table: req.Table, Keys: append([]string(nil), req.Keys...), Level: req.Level, Limit: req.Limit,
			PageSize: req.PageSize, Query: req.Query, Concurrency: req.Concurrency, NowInSec: now}
		require.Equal(rt, pagesOf(t, e.c, fresh), pagesOf(t, e.c, req))
	})
}

// pagedManyRequest draws an IN query of minKeys to len(all) keys of all,
// a Limit up to maxLimit, a PageSize of minPageSize to 4, a per-partition
// limit and a Concurrency, reads minPages to 3 pages of it, and returns the
// request Next made for the page after, or the last page's request and
// false when Next had no page after it.
func pagedManyRequest(rt *rapid.T, e *env, all []string, minKeys, maxLimit, minPageSize, minPages int) (coordinator.ManyRequest, bool) {
	keys := rapid.SliceOfN(rapid.SampledFrom(all), minKeys, len(all)).Draw(rt, "keys")
	req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
		Limit: rapid.IntRange(0, maxLimit).Draw(rt, "limit"), PageSize: rapid.IntRange(minPageSize, 4).Draw(rt, "ps"),
		Query: replica.Query{Limit: rapid.IntRange(0, 3).Draw(rt, "ppl")}, Concurrency: rapid.IntRange(1, 3).Draw(rt, "conc"), NowInSec: now}
	for range rapid.IntRange(minPages, 3).Draw(rt, "pages") {
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(rt, err)
		next, more := req.Next(res)
		if !more {
			return req, false
		}
		req = next
	}
	return req, true
}
