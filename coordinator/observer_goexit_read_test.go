package coordinator_test

import (
	"context"
	"runtime"
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

// goexitFirstRepair calls runtime.Goexit for the first repair it is told of.
type goexitFirstRepair struct{ n *atomic.Int32 }

func (goexitFirstRepair) OnHedge(coordinator.HedgeEvent) {}
func (g goexitFirstRepair) OnRepair(e coordinator.RepairEvent) {
	if g.n.Add(1) == 1 {
		runtime.Goexit()
	}
}

// readToTheEnd reads key at ALL on a goroutine of its own, which the
// Observer may end, and waits for it and for what it left running.
func readToTheEnd(c *coordinator.Coordinator) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
	}()
	<-done
	time.Sleep(time.Second)
	synctest.Wait()
}

// An Observer that calls Goexit (t.FailNow in a test double) for a
// BLOCKING repair ends the reading goroutine, as from Read; the other
// writes of the repair must still be booked, so that RepairsSent stays the
// sum of how repairs ended.
func TestBlockingRepairObserverGoexitLeavesRepairsBooked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		var n atomic.Int32
		c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: e.cluster,
			Observer: goexitFirstRepair{&n}, DefaultTable: policy(t, "NEVER")})
		require.NoError(t, err)
		defer c.Close()
		readToTheEnd(c)
		m := c.Metrics().Total
		assert.Equal(t, int64(2), m.RepairsSent)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned,
			"a repair is neither acknowledged, failed, dropped nor abandoned:\n%v", c.Metrics())
		assert.Equal(t, int64(1), m.OtherErrors, "the read that never returned counts as a success")
	})
}

// stallFirstApply holds its first Apply until the write's context ends.
type stallFirstApply struct {
	replica.Replica
	n *atomic.Int32
}

func (s stallFirstApply) Apply(ctx context.Context, m replica.Mutation) error {
	if s.n.Add(1) == 1 {
		<-ctx.Done()
		return ctx.Err()
	}
	return s.Replica.Apply(ctx, m)
}

// And a write still running when the read times out must still go on to
// the ASYNC queue: C, stale, is repaired in the background, and counted in
// RepairsTimedOut, which the Goexit skipped. The read counts in
// OtherErrors, as any read a hook unwinds: its caller saw no timeout.
func TestBlockingRepairObserverGoexitStillQueuesPendingWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		var n atomic.Int32
		var applies atomic.Int32
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, C, func(r replica.Replica) replica.Replica { return stallFirstApply{r, &applies} }),
			Liveness: e.cluster, Observer: goexitFirstRepair{&n}, DefaultTable: policy(t, "NEVER"),
			ReadTimeout: 100 * time.Millisecond,
		})
		require.NoError(t, err)
		defer c.Close()
		readToTheEnd(c)
		p, _ := e.replica(C).Partition(tbl, key)
		assert.Equal(t, "v2", string(p.Rows[0].Cells[0].Value), "C was never repaired")
		m := c.Metrics().Total
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%v", c.Metrics())
		assert.Equal(t, int64(1), m.RepairsTimedOut, "C's write, running when the read timed out")
		assert.Equal(t, int64(1), m.OtherErrors)
		assert.Zero(t, m.Timeouts)
	})
}

// So must a write still running when the read times out that the full
// ASYNC queue drops: the Observer hears of the drop on the reading
// goroutine, and a Goexit there must find the write counted in
// RepairsTimedOut already, as it finds the other writes booked.
func TestBlockingRepairObserverGoexitOnADropFindsTheTimeoutCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c, release := fullRepairQueue(t)
		defer c.Close()
		all := coordinator.Request{Table: tbl, Key: key, Level: consistency.All}
		require.NoError(t, c.SetTableOptions(tbl, coordinator.TableOptions{ReadRepair: repair.Blocking}))
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v3", 30), A, C))
		done := make(chan struct{})
		go func() { // B's write runs when the read times out; the full queue drops it, the Observer Goexits
			defer close(done)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			c.Read(ctx, all)
		}()
		<-done
		close(release)
		time.Sleep(10 * time.Second)
		synctest.Wait()
		m := c.Metrics().Total
		require.Equal(t, int64(3), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsDropped, "%+v", m)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned,
			"a repair is neither acknowledged, failed, dropped nor abandoned:\n%v", c.Metrics())
		assert.Equal(t, int64(1), m.RepairsTimedOut, "B's write, running when the read timed out")
	})
}
