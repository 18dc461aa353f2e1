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

// ManyRequest.Concurrency left at 0 runs 32 reads at once, its documented
// default: one replica request each at ONE.
func TestReadManyConcurrencyDefaultsTo32(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		keys := manyKeys(t, e, 50)
		c, peak := peakCounting(t, e)

		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One})
		require.NoError(t, err)
		for _, r := range res {
			require.NoError(t, r.Err)
		}
		assert.Equal(t, int64(32), peak.Load())
	})
}
