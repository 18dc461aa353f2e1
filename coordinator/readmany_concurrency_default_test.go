package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// ManyRequest.Concurrency left at 0 runs 32 reads at once, its documented
// default: one replica request each at ONE.
func TestReadManyConcurrencyDefaultsTo32(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		keys := manyKeys(t, e, 50)
		var now, peak atomic.Int64
		c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
			Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica { return counting{r, &now, &peak} })})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One})
		require.NoError(t, err)
		for _, r := range res {
			require.NoError(t, r.Err)
		}
		assert.Equal(t, int64(32), peak.Load())
	})
}
