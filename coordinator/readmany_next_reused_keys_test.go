package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A request Next made is checked for repeats again once its Keys no longer
// hold what Next put there, even in the same list of the same length: a
// caller reusing a page's request for another IN query, its list refilled
// in place, gets each key once, and an empty key refused. ReadMany trusted
// any list in Next's array of Next's length, and read a twice (a/1, a/2
// again after b), and the empty key as a key of its own.
func TestReadManyChecksNextsKeysRefilledInPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "d"}, Level: consistency.Quorum, PageSize: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)

		again := next
		again.PagingState, again.PageSize = nil, 0
		again.Keys = append(again.Keys[:0], "b", "a", "d", "a")
		res, err = e.c.ReadMany(context.Background(), again)
		require.NoError(t, err)
		assert.Equal(t, []string{"b", "a", "d"}, keysOf(res))
		assert.Equal(t, []string{"b/1", "b/2", "a/1", "a/2", "d/1", "d/2"}, manyRows(t, res))

		again.Keys[1] = ""
		_, err = e.c.ReadMany(context.Background(), again)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, "an empty key")
	})
}

// A key changed past the keys a page reads is found before the page reads
// any: the page reads the changed list, checked.
func TestReadManyChecksNextsKeysChangedPastTheFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "d"}, Level: consistency.Quorum, PageSize: 1,
			Concurrency: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)
		next.Keys[2] = "a"
		next.PageSize = 100
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b", "d"}, keysOf(res))
		assert.Equal(t, []string{"a/2", "b/1", "b/2", "d/1", "d/2"}, manyRows(t, res))
	})
}

// A request Next made whose Keys the caller shortened reads only the keys
// left in it, in order, as ReadMany's doc says: a list shorter than Next's
// copy is checked as a list of its own. Trusted as a prefix of the copy,
// the page read the copy's keys past the caller's list too (c and d).
func TestReadManyReadsOnlyTheKeysLeftInAShortenedList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "d"},
			Level: consistency.Quorum, PageSize: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)
		require.Equal(t, []string{"a", "b", "c", "d"}, next.Keys)
		next.Keys, next.PageSize = next.Keys[:2], 100
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b"}, keysOf(res))
		assert.Equal(t, []string{"a/2", "b/1", "b/2"}, manyRows(t, res))
	})
}

// A list refilled for a new query, whose first keys are those Next left
// and whose repeat lies beyond the first page, is checked whole before
// that page: each key is read once over all the pages, as a fresh request
// reads it, whether the list is new or Next's refilled in place. ReadMany
// checked a key only when a page came to it, then read the rest as a list
// of its own: c, read by the first pages, was read again after d (found by
// TestReadManyReusedRequestReadsAsAFreshOne).
func TestReadManyChecksARefilledListWholeBeforeItsFirstPage(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		t.Run(fmt.Sprintf("in place %v", inPlace), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				seedRows(t, e, 2, "a", "c", "d")
				req := coordinator.ManyRequest{Table: tbl, Keys: []string{"c", "d", "a"}, Level: consistency.Quorum, PageSize: 1,
					Concurrency: 1, NowInSec: now}
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				again, more := req.Next(res)
				require.True(t, more)
				again.PagingState = nil
				if inPlace {
					again.Keys = append(again.Keys[:0], "c", "d", "c")
				} else {
					again.Keys = []string{"c", "d", "c"}
				}
				fresh := coordinator.ManyRequest{Table: tbl, Keys: []string{"c", "d", "c"}, Level: consistency.Quorum, PageSize: 1,
					Concurrency: 1, NowInSec: now}
				want := pagesOf(t, e.c, fresh)
				require.Equal(t, []string{"c/1", "c/2", "d/1", "d/2"}, slices.Concat(want...))
				assert.Equal(t, want, pagesOf(t, e.c, again))
			})
		})
	}
}
