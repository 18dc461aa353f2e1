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

// A read refused as a bad request, its paging state's included, sends
// nothing and returns a zero Result, a zero Trace with it, as Result's doc
// says.
func TestABadRequestReturnsAZeroResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		page := coordinator.Request{Table: tbl, Key: key, Level: consistency.One, Query: replica.Query{Limit: 1}}
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(key,
			replica.NewRow("a", replica.Live("v", "1", 10)), replica.NewRow("b", replica.Live("v", "2", 10)))))
		res, err := e.c.Read(context.Background(), page)
		require.NoError(t, err)
		require.NotNil(t, res.PagingState)
		settle()
		before := e.totalReads()

		otherKey := page
		otherKey.Key, otherKey.PagingState = "other", res.PagingState
		malformed := page
		malformed.PagingState = []byte{0xff}
		for name, req := range map[string]coordinator.Request{
			"no key":             {Table: tbl, Level: consistency.One},
			"serial":             {Table: tbl, Key: key, Level: consistency.Serial},
			"negative page size": {Table: tbl, Key: key, Level: consistency.One, PageSize: -1},
			"malformed state":    malformed,
			"another key's":      otherKey,
		} {
			res, err := e.c.Read(context.Background(), req)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
			assert.Zero(t, res, name)
		}
		settle()
		assert.Equal(t, before, e.totalReads(), "nothing sent")
	})
}
