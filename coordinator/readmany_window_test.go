package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// lateKeyBeforeEmptyKeys is a cluster and a coordinator where the key
// k00, 20 ms late, holds 3 rows and the 40 keys after it none.
func lateKeyBeforeEmptyKeys(t *testing.T) (*env, *coordinator.Coordinator, []string) {
	e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
	keys := []string{"k00"}
	for i := 1; i <= 40; i++ {
		keys = append(keys, fmt.Sprintf("e%02d", i))
	}
	seedRows(t, e, 3, "k00")
	return e, lateKeysCoordinator(t, e, func(key string) bool { return key == "k00" }), keys
}

// A page reads at most Concurrency keys from the first it has not read,
// even while the keys read hold none of its rows: behind a first key 20
// ms late that holds the page (3 rows, pages of 2), 40 keys that hold
// nothing are not all read by the first page and again by the second (41
// replica reads for the 2 rows of the first page, 82 in all), but 3 of
// them, 4 at a time: each page reads at most Concurrency−1 keys twice.
func TestReadManyPageReadsNoFurtherThanConcurrencyBehindALateKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c, keys := lateKeyBeforeEmptyKeys(t)
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, PageSize: 2,
			Concurrency: 4, NowInSec: now}
		before := e.totalReads()
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		assert.Equal(t, []string{"k00/1", "k00/2"}, manyRows(t, res))
		settle()
		assert.LessOrEqual(t, e.totalReads()-before, int64(4), "k00 and at most 3 keys after it")

		before = e.totalReads()
		pages := pagesOf(t, c, req)
		assert.Equal(t, [][]string{{"k00/1", "k00/2"}, {"k00/3"}}, pages)
		settle()
		assert.LessOrEqual(t, e.totalReads()-before, int64(4+41), "each key once, but 3 of them")
	})
}

// Keys waiting for a late key before them end when the page's context
// does: cancelled at 5 ms, the page returns then, the late key and the keys
// past its window with the cancellation, the 3 keys read within it read.
func TestReadManyPageWaitingBehindALateKeyEndsWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c, keys := lateKeyBeforeEmptyKeys(t)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(5), cancel)
		start := time.Now()
		res, err := c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One,
			PageSize: 2, Concurrency: 4, NowInSec: now})
		require.NoError(t, err)
		assert.Equal(t, ms(5), time.Since(start), "returned when cancelled")
		require.Len(t, res, 41)
		for i, r := range res {
			if i == 0 || i >= 4 {
				assert.ErrorIs(t, r.Err, context.Canceled, r.Key)
			} else {
				assert.NoError(t, r.Err, r.Key)
			}
		}
	})
}
