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

// A request's keys are checked for repeats among themselves only, as the
// README says: a key of a Next-made request changed to one a page before
// read is read again, since a page costs the keys it reads, not those the
// pages before read. A caller that wants other keys starts a new request.
func TestReadManyRereadsAKeyChangedToOneAPageBeforeRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "d"}, Level: consistency.Quorum,
			PageSize: 3, Concurrency: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		rows := manyRows(t, res)
		next, more := req.Next(res)
		require.True(t, more)
		require.Equal(t, []string{"b", "c", "d"}, next.Keys)
		next.Keys[2] = "a"
		for more {
			res, err = e.c.ReadMany(context.Background(), next)
			require.NoError(t, err)
			rows = append(rows, manyRows(t, res)...)
			next, more = next.Next(res)
		}
		assert.Equal(t, []string{"a/1", "a/2", "b/1", "b/2", "c/1", "c/2", "a/1", "a/2"}, rows)
	})
}
