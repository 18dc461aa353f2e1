package coordinator_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A Limit or PageSize up to math.MaxInt, as a caller may spell "no limit",
// reads every key as none does: the page's room, its size plus the window
// of keys read past its last, wrapped negative and ReadMany panicked
// (makeslice: cap out of range; found by a user's drill). A page size of 1
// under such a Limit pages on.
func TestReadManyTakesLimitsUpToMaxInt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		keys := manyKeys(t, e, 5)
		want, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One})
		require.NoError(t, err)
		for _, c := range []struct{ limit, size int }{
			{math.MaxInt, 0}, {math.MaxInt - 1, 0}, {0, math.MaxInt}, {math.MaxInt, math.MaxInt}, {math.MaxInt, 1},
		} {
			req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, Limit: c.limit, PageSize: c.size}
			var got []coordinator.KeyResult
			for page := 0; ; page++ {
				require.Less(t, page, 2*len(keys), "limit %d, page size %d: pages without end", c.limit, c.size)
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err, "limit %d, page size %d", c.limit, c.size)
				got = append(got, res...)
				next, ok := req.Next(res)
				if !ok {
					break
				}
				req = next
			}
			what := fmt.Sprintf("limit %d, page size %d", c.limit, c.size)
			var read []coordinator.KeyResult // a page of one row cuts its key: the next reads on after it
			for _, r := range got {
				require.NoError(t, r.Err, what)
				if !r.Result.Partition.IsEmpty() {
					read = append(read, r)
				}
			}
			require.Len(t, read, len(want), what)
			for i := range read {
				assert.Equal(t, want[i].Key, read[i].Key, what)
				assert.True(t, want[i].Result.Partition.Equal(read[i].Result.Partition), "%s: key %q", what, read[i].Key)
			}
		}
	})
}
