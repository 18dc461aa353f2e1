package coordinator_test

import (
	"context"
	"sync"
	"sync/atomic"
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

// An Observer told of an ASYNC repair's outcome, on the worker that
// applied it, may call Close, which returns once the other workers exit.
// It waited for its own worker too, which could only exit after Close
// returned: the whole read timeout (30 s here), though every replica
// honours its context.
func TestCloseFromAnAsyncRepairWorkersObserverDoesNotWaitForThatWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		var c *coordinator.Coordinator
		var once sync.Once
		closeTook := make(chan time.Duration, 1)
		c, err := coordinator.New(coordinator.Config{
			// B's writes run until cancelled: one worker is in B's Apply
			// when another's Observer closes.
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return applyUntilCancelled{r} }),
			Liveness: e.cluster, RepairWorkers: 3, ReadTimeout: 30 * time.Second,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
			Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
				if ev.To.ID == C && !ev.Dropped {
					once.Do(func() {
						start := time.Now()
						_ = c.Close()
						closeTook <- time.Since(start)
					})
				}
			}},
		})
		require.NoError(t, err)
		// B is stale: its repair holds a worker in Apply.
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		synctest.Wait()
		// C is stale too now: another worker applies its repair at once,
		// and its Observer closes the coordinator.
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v3", 30), A))
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		took := <-closeTook
		synctest.Wait()
		assert.Less(t, took, time.Second, "Close waited for the worker that called it")
		assert.Zero(t, c.Metrics().Total.RepairsAbandoned)
	})
}
