package coordinator_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// readMany runs n readers, each doing per reads of key at QUORUM, and
// fails the test on any error.
func readMany(t *testing.T, c *coordinator.Coordinator, n, per int) {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for range per {
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
}

// A cluster-wide slowdown above a fixed 10 ms threshold makes every read
// due to hedge; the budget holds hedges to 10 % of reads plus its floor.
func TestHedgeStormIsCappedByTheBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms")})
		require.NoError(t, e.cluster.SetSlowdown(20)) // 1 ms becomes 20 ms everywhere

		readMany(t, e.c, 50, 10)
		m := e.c.Metrics().Total
		const floor = 1 * 10 // MinPerSecond × Window in seconds, the defaults
		assert.Equal(t, int64(500), m.Reads)
		assert.LessOrEqual(t, m.SpeculativeRetries, int64(0.1*500+floor))
		assert.Greater(t, m.SpeculativeRetries, int64(0.1*500), "the budget is used, not just refused")
		assert.Equal(t, m.Reads, m.SpeculativeRetries+m.SuppressedBudget, "every read was due to hedge")
	})
}

// Without the budget the same slowdown hedges every read: the storm.
func TestUnlimitedBudgetHedgesEveryRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms"), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		require.NoError(t, e.cluster.SetSlowdown(20))
		readMany(t, e.c, 50, 2)
		m := e.c.Metrics().Total
		assert.Equal(t, m.Reads, m.SpeculativeRetries)
	})
}

// Past the overload limit of reads in flight, no read hedges.
func TestOverloadSwitchStopsHedging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms"), MaxInFlight: 5,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		require.NoError(t, e.cluster.SetSlowdown(20))

		readMany(t, e.c, 20, 1) // 20 reads in flight when their hedges are due
		m := e.c.Metrics().Total
		assert.Zero(t, m.SpeculativeRetries)
		assert.Equal(t, int64(20), m.SuppressedOverload)

		readMany(t, e.c, 1, 1) // alone, a read hedges again
		assert.Equal(t, int64(1), e.c.Metrics().Total.SpeculativeRetries)
	})
}

// The overload switch trips above MaxInFlight, not at it: with exactly
// MaxInFlight reads in flight every one hedges; with one more none does.
func TestOverloadSwitchBoundary(t *testing.T) {
	for _, c := range []struct {
		readers            int
		hedged, suppressed int64
	}{{5, 5, 0}, {6, 0, 6}} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms"), MaxInFlight: 5,
				HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
			require.NoError(t, e.cluster.SetSlowdown(20))
			readMany(t, e.c, c.readers, 1)
			m := e.c.Metrics().Total
			assert.Equal(t, c.hedged, m.SpeculativeRetries, "%d readers", c.readers)
			assert.Equal(t, c.suppressed, m.SuppressedOverload, "%d readers", c.readers)
		})
	}
}

// A percentile threshold follows the table's latency up when the cluster
// slows down.
func TestPercentileThresholdRisesWithTheSlowdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "99p"), ThresholdRefresh: ms(10)})
		readMany(t, e.c, 10, 20)
		before := e.c.Metrics().Tables[0].Threshold
		assert.InDelta(t, float64(ms(1)), float64(before), float64(ms(0.1)))

		require.NoError(t, e.cluster.SetSlowdown(8))
		readMany(t, e.c, 10, 100)
		after := e.c.Metrics().Tables[0].Threshold
		assert.Greater(t, after, 7*before, "threshold %v after, %v before", after, before)
	})
}
