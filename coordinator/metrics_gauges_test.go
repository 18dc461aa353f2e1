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
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Metrics gauges the reads running, and the ASYNC repairs waiting for a
// worker: none before the queue starts, as many as wait behind a worker
// held in a replica's Apply, none once Close has dropped them.
func TestMetricsGaugeReadsInFlightAndQueuedRepairs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		in := make(chan struct{}, 8)
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return signalApply{r, in} }),
			Liveness: e.cluster, RepairWorkers: 1,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		assert.Zero(t, c.Metrics().RepairsQueued, "before the queue starts")

		var wg sync.WaitGroup
		for range 5 {
			wg.Go(func() {
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				assert.NoError(t, err)
			})
		}
		synctest.Wait() // every read waits for its replicas' answers
		assert.Equal(t, int64(5), c.Metrics().InFlight)
		wg.Wait()
		<-in // the one worker is in B's first Apply; four wait in the queue
		synctest.Wait()
		m := c.Metrics()
		assert.Zero(t, m.InFlight)
		assert.Equal(t, 4, m.RepairsQueued)

		c.Close()
		assert.Zero(t, c.Metrics().RepairsQueued, "Close dropped them")
	})
}
