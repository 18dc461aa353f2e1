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

// A request Next made whose Keys the caller refilled in place, for another
// IN query, pages that query to its end: Next follows the list the page
// read, not Next's copy of the one it replaced. Next found the cut key in
// its old copy, and the next page read the refilled list from the cut
// key's old position with the cut key's paging state (d, c, b, a in pages
// of 3: an ErrInvalidRequest for the state), or, the key not in the copy,
// only the keys of the results from the cut on (e, f, g, h: g and h lost).
func TestReadManyPagesNextsKeysRefilledInPlace(t *testing.T) {
	for _, keys := range [][]string{{"d", "c", "b", "a"}, {"e", "f", "g", "h"}} {
		t.Run(keys[0], func(t *testing.T) { pageRefilledKeys(t, keys) })
	}
}

func pageRefilledKeys(t *testing.T, keys []string) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 2, "a", "b", "c", "d", "e", "f", "g", "h")
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c", "d"}, Level: consistency.Quorum,
			PageSize: 1, Concurrency: 1, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, more := req.Next(res)
		require.True(t, more)

		again := next
		again.PagingState, again.PageSize = nil, 3
		again.Keys = append(again.Keys[:0], keys...)
		var rows []string
		for page := 0; ; page++ {
			require.Less(t, page, 10, "pages")
			res, err := e.c.ReadMany(context.Background(), again)
			require.NoError(t, err)
			rows = append(rows, manyRows(t, res)...)
			if again, more = again.Next(res); !more {
				break
			}
		}
		var want []string
		for _, k := range keys {
			want = append(want, k+"/1", k+"/2")
		}
		assert.Equal(t, want, rows)
	})
}
