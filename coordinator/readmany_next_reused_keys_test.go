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

// A key changed past the keys a page has read is found when the page
// comes to it: the page is read again from the changed list, checked.
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
