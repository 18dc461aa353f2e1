package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A request Next made, reused for a new query without a PageSize, pages
// by its new Limit: the LIMIT the old pages left is no longer a total once
// the caller sets the keys, the state or the Limit afresh. Next kept it a
// total, so the new query ended after its first page, its other rows
// unread.
func TestReadManyNextsRequestReusedPagesByItsNewLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a", "b", "c")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			Limit: 5, PageSize: 2, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)

		again := next // new keys: pages of 2 through them all
		again.Keys, again.PagingState, again.PageSize, again.Limit = []string{"c", "b"}, nil, 0, 2
		assert.Equal(t, [][]string{{"c/1", "c/2"}, {"c/3", "b/1"}, {"b/2", "b/3"}, nil}, pagesOf(t, e.c, again))

		again = next // the same keys, in another list
		again.Keys, again.PagingState, again.PageSize, again.Limit = []string{"a", "b", "c"}, nil, 0, 3
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3"}, {"b/1", "b/2", "b/3"}, {"c/1", "c/2", "c/3"}, nil},
			pagesOf(t, e.c, again))

		again = next // Next's keys and Limit, read from the start
		again.PagingState, again.PageSize = nil, 0
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3"}, {"b/1", "b/2", "b/3"}, {"c/1", "c/2", "c/3"}, nil},
			pagesOf(t, e.c, again))

		again = next // Next's keys, a new Limit
		again.PagingState, again.PageSize, again.Limit = nil, 0, 4
		assert.Equal(t, [][]string{{"a/1", "a/2", "a/3", "b/1"}, {"b/2", "b/3", "c/1", "c/2"}, {"c/3"}},
			pagesOf(t, e.c, again))

		// Next's keys and state, a new Limit: the Limit alone set afresh
		// makes a query of its own too, paged by 4 (a PageSize dropped
		// keeps a total only while Limit, Keys and PagingState are Next's).
		// Taken for the total the pages before left, 4 ended it after one.
		again = next
		again.PageSize, again.Limit = 0, 4
		assert.Equal(t, [][]string{{"a/3", "b/1", "b/2", "b/3"}, {"c/1", "c/2", "c/3"}},
			pagesOf(t, e.c, again))
	})
}
