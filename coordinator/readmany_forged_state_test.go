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

// A state claiming more rows remaining than the per-partition limit is held
// to that limit over the pages that follow it, as a Request's is: the key
// returns Query.Limit rows after the state's row, counted afresh, not one
// page's worth at a time. ReadMany carried the claim on, less each page,
// so a key under PER PARTITION LIMIT 2 paged by 1 returned every row after
// the state's. Under another per-partition limit the state is refused.
func TestReadManyHoldsAForgedStateToThePerPartitionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"1", "2", "3", "4", "5", "6"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		q := replica.Query{Limit: 2}
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: q, PagingState: forgedFor(t, q), NowInSec: now}
		assert.Equal(t, [][]string{{"2"}, {"3"}}, pageSizes(t, e.c, req, 1), "a Request")

		many := coordinator.ManyRequest{Table: tbl, Keys: []string{key, "other"}, Level: consistency.All, Query: q,
			PageSize: 1, PagingState: forgedFor(t, q), NowInSec: now}
		assert.Equal(t, [][]string{{key + "/2"}, {key + "/3"}, nil}, pagesOf(t, e.c, many))

		// A state that carries no rows remaining (a Request's read without a
		// PageSize makes one, as did a release before PageSize) leaves the
		// key the whole limit, held over the pages after it just the same.
		// Taken for no bound, it let the key return every row after row 1.
		plain, err := replica.NewPagingState(tbl, key, q, nil, "1").MarshalBinary()
		require.NoError(t, err)
		many.PagingState = plain
		assert.Equal(t, [][]string{{key + "/2"}, {key + "/3"}, nil}, pagesOf(t, e.c, many))

		// Under a smaller or larger per-partition limit the state is
		// another query's, refused.
		for _, limit := range []int{1, 3} {
			many.Query.Limit = limit
			_, err := e.c.ReadMany(context.Background(), many)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, "limit %d", limit)
		}
	})
}

// A state bounding the rows remaining under no per-partition limit (as
// replica.PagingState.WithRemaining makes one) ends the key after them in
// a ReadMany's pages as in a Request's: its bound is carried on to the
// pages after the first, not dropped for the absent limit.
func TestReadManyHoldsAStatesRowsRemainingWithoutALimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"1", "2", "3", "4", "5", "6"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		state, err := replica.NewPagingState(tbl, key, replica.Query{}, nil, "1").WithRemaining(2).MarshalBinary()
		require.NoError(t, err)
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All, PagingState: state, NowInSec: now}
		assert.Equal(t, [][]string{{"2"}, {"3"}}, pageSizes(t, e.c, req, 1), "a Request")

		many := coordinator.ManyRequest{Table: tbl, Keys: []string{key, "other"}, Level: consistency.All,
			PageSize: 1, PagingState: state, NowInSec: now}
		assert.Equal(t, [][]string{{key + "/2"}, {key + "/3"}, nil}, pagesOf(t, e.c, many))
	})
}
