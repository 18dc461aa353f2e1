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

// droppingRead is a replica whose Read, once it has read, calls drop: the
// table is dropped while a read of it is under way.
type droppingRead struct {
	replica.Replica
	drop func()
}

func (d droppingRead) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := d.Replica.Read(ctx, cmd)
	d.drop()
	return resp, err
}

// DROP TABLE while a BLOCKING read of the table is under way: its repair,
// not yet sent, is never written, as a queued ASYNC one is not (see
// ErrTableDropped), since a table made again under the name (DROP, then
// CREATE) must not receive the old one's data. The read returns what it
// read, and the repair counts as dropped.
func TestADroppedTablesBlockingRepairIsNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		const daily, key = "daily_0101", "k1"
		require.NoError(t, e.cluster.SeedOn(daily, row(key, "v2", 20), A, B))
		require.NoError(t, e.replica(C).Seed(daily, row(key, "v1", 10)))
		obs := &repairRecorder{}
		var c *coordinator.Coordinator
		loc := wrapID(e.cluster, A, func(r replica.Replica) replica.Replica {
			return droppingRead{r, func() { c.DropTable(daily) }}
		})
		c, err := coordinator.New(coordinator.Config{
			Locator: loc, Liveness: e.cluster, Observer: obs,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Blocking},
		})
		require.NoError(t, err)
		defer c.Close()
		res, err := c.Read(context.Background(), coordinator.Request{Table: daily, Key: key, Level: consistency.All})
		require.NoError(t, err)
		assert.Equal(t, row(key, "v2", 20), res.Partition)
		time.Sleep(time.Second)
		synctest.Wait()

		p, _ := e.replica(C).Partition(daily, key)
		assert.Equal(t, row(key, "v1", 10), p, "the repair was written to the dropped table")
		total := c.Metrics().Total
		assert.Equal(t, int64(1), total.RepairsSent)
		assert.Equal(t, int64(1), total.RepairsDropped)
		_, events := obs.snapshot()
		require.Len(t, events, 1)
		assert.True(t, events[0].Dropped)
		assert.ErrorIs(t, events[0].Err, coordinator.ErrTableDropped)
	})
}
