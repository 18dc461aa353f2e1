package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Once the keys read in order hold a page's rows, the reads in flight of
// keys after it are cancelled, not waited for, and counted as Cancelled:
// four keys of one row, read at once, in a page of 2, where c and d take
// 20 ms.
func TestReadManyCancelsTheReadsAfterAFullPage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := []string{"a", "b", "c", "d"}
		seedRows(t, e, 1, keys...)
		c := lateKeysCoordinator(t, e, func(key string) bool { return key == "c" || key == "d" })

		start := time.Now()
		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys,
			Level: consistency.One, PageSize: 2, Concurrency: 4, NowInSec: now})
		require.NoError(t, err)
		assert.Less(t, time.Since(start), ms(20), "waited for the keys after the page")
		for i, r := range res {
			assert.Equal(t, i >= 2, r.Cut, r.Key)
			assert.NoError(t, r.Err, r.Key)
		}
		assert.Equal(t, int64(2), c.Metrics().Total.Cancelled)
	})
}
