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
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// DROP TABLE with two ASYNC repairs of the table in the queue: the one
// being written finishes, and the one still queued is dropped at its turn
// (ErrTableDropped), never written, as a table made again under the name
// must not receive the old one's data. Both keep the totals' promise,
// sent = acked + failed + dropped + abandoned, though the table is gone.
func TestADroppedTablesQueuedRepairsAreDroppedAndStayInTheTotals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		const daily, written, queued = "daily_0101", "k1", "k2"
		for _, k := range []string{written, queued} {
			require.NoError(t, e.cluster.SeedOn(daily, row(k, "v2", 20), A, B))
			require.NoError(t, e.replica(C).Seed(daily, row(k, "v1", 10)))
		}
		obs := &repairRecorder{}
		release := make(chan struct{})
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, C, func(r replica.Replica) replica.Replica { return gatedApply{r, release} }),
			Liveness: e.cluster, Observer: obs, RepairWorkers: 1,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		defer c.Close()
		for _, k := range []string{written, queued} {
			_, err := c.Read(context.Background(), coordinator.Request{Table: daily, Key: k, Level: consistency.All})
			require.NoError(t, err)
			synctest.Wait() // the first repair is taken, and waits in C's Apply
		}
		c.DropTable(daily)
		close(release)
		time.Sleep(time.Second)
		synctest.Wait()

		total := c.Metrics().Total
		assert.Equal(t, int64(2), total.RepairsSent)
		assert.Equal(t, int64(1), total.RepairsAcked, "the write under way when the table was dropped")
		assert.Equal(t, int64(1), total.RepairsDropped, "the write queued")
		assert.Equal(t, total.RepairsSent, total.RepairsAcked+total.RepairsFailed+total.RepairsDropped+total.RepairsAbandoned)
		p, _ := e.replica(C).Partition(daily, written)
		assert.Equal(t, row(written, "v2", 20), p, "the write under way finished")
		p, _ = e.replica(C).Partition(daily, queued)
		assert.Equal(t, row(queued, "v1", 10), p, "the queued write was not sent")
		_, events := obs.snapshot()
		require.Len(t, events, 2)
		assert.Equal(t, written, events[0].Key)
		assert.NoError(t, events[0].Err)
		assert.Equal(t, queued, events[1].Key)
		assert.True(t, events[1].Dropped)
		assert.ErrorIs(t, events[1].Err, coordinator.ErrTableDropped)
	})
}
