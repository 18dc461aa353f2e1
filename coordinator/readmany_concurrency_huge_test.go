package coordinator_test

import (
	"context"
	"math"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A ManyRequest.Concurrency past the number of keys, up to math.MaxInt,
// costs what one of the number of keys does: as many reads at once as
// keys, and the same pages, with or without a page size (whose window of
// keys past the first unread one it bounds too).
func TestReadManyHugeConcurrencyIsTheKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		keys := manyKeys(t, e, 5)
		c, peak := peakCounting(t, e)

		for _, size := range []int{0, 2} {
			req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, PageSize: size, Concurrency: len(keys)}
			want, err := c.ReadMany(context.Background(), req)
			require.NoError(t, err)
			for _, conc := range []int{len(keys) + 1, 1 << 30, math.MaxInt} {
				synctest.Wait() // the calls a page abandoned once it filled end
				peak.Store(0)
				req.Concurrency = conc
				got, err := c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				require.Len(t, got, len(want), "concurrency %d, page size %d", conc, size)
				for i := range got {
					require.NoError(t, got[i].Err)
					assert.Equal(t, want[i].Key, got[i].Key)
					assert.True(t, want[i].Result.Partition.Equal(got[i].Result.Partition), "key %q", got[i].Key)
				}
				assert.LessOrEqual(t, peak.Load(), int64(len(keys)), "concurrency %d, page size %d", conc, size)
			}
		}
	})
}
