package coordinator_test

import (
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// goexitOnDrop calls runtime.Goexit when told of a dropped repair.
type goexitOnDrop struct{}

func (goexitOnDrop) OnHedge(coordinator.HedgeEvent) {}
func (goexitOnDrop) OnRepair(e coordinator.RepairEvent) {
	if e.Dropped {
		runtime.Goexit()
	}
}

// An Observer that calls Goexit when told, on the reading goroutine, of a
// repair the full ASYNC queue dropped must not leave the read's other
// repairs unbooked: RepairsSent stays the sum of how repairs ended.
func TestObserverGoexitOnAQueueDropLeavesTheOtherRepairsBooked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c, release := fullRepairQueue(t)
		defer c.Close()
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v3", 30), A))
		readToTheEnd(c) // B and C stale: both repairs dropped
		close(release)
		time.Sleep(time.Second)
		synctest.Wait()
		m := c.Metrics().Total
		require.Equal(t, int64(4), m.RepairsSent)
		assert.Equal(t, int64(2), m.RepairsDropped, "%+v", m)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned,
			"a repair is neither acknowledged, failed, dropped nor abandoned:\n%v", c.Metrics())
	})
}

// fullRepairQueue returns a coordinator over e whose Observer calls Goexit
// on a dropped repair, with ASYNC repair's one worker held in B's Apply
// until release is closed and its queue of one full: two ASYNC reads found
// B stale.
func fullRepairQueue(t *testing.T) (*env, *coordinator.Coordinator, chan struct{}) {
	e := newEnv(t, coordinator.Config{})
	release := make(chan struct{})
	c, err := coordinator.New(coordinator.Config{
		Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return gatedApply{r, release} }),
		Liveness: e.cluster, Observer: goexitOnDrop{}, RepairWorkers: 1, RepairQueue: 1,
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
	})
	require.NoError(t, err)
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
	for range 2 { // the worker holds the first repair in B's Apply, the queue the second
		readToTheEnd(c)
	}
	return e, c, release
}
