package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// An Observer told that a read's ASYNC repair was dropped, the queue full,
// may call Close: the drop is told after the queue's lock, which Close
// takes, so the read and Close return. (A lock held, not a timer, would
// stall it: outside a synctest bubble, which cannot tell a goroutine
// stuck on a mutex from one that runs, a watchdog fails the test.)
func TestAnObserverMayCloseOnADroppedRepair(t *testing.T) {
	cl := instantCluster(t)
	require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), A, C))
	var c *coordinator.Coordinator
	var first atomic.Bool
	closed := make(chan error, 1)
	c, err := coordinator.New(coordinator.Config{
		Locator:  wrapID(cl, B, func(r replica.Replica) replica.Replica { return applyUntilCancelled{r} }),
		Liveness: cl, RepairWorkers: 1, RepairQueue: 1, LocalDatacenter: "dc1",
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		Observer: coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) {
			if e.Dropped {
				if first.CompareAndSwap(false, true) {
					closed <- c.Close()
				}
			}
		}},
	})
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 { // one in B's Apply, one queued, one dropped
			_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			if err != nil {
				break // closed
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the read and the Close its Observer made are stuck")
	}
	require.NoError(t, <-closed)
}
