package coordinator_test

import (
	"context"
	"errors"
	"runtime"
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

// A hook that calls runtime.Goexit (t.FailNow in a test double) ends the
// library's goroutine it runs on, where a panic would be recovered: these
// check that the library goes on as after the panic.

// goexitOutcomes is an outcome reporter that calls runtime.Goexit for one
// replica's outcome.
type goexitOutcomes struct{ id string }

func (g goexitOutcomes) ReportOutcome(o replica.Outcome) {
	if o.Endpoint.ID == g.id {
		runtime.Goexit()
	}
}

// An Outcomes that calls Goexit on a request's worker does not keep the
// replica's answer from the read. It used to end the worker before the
// answer was handed over, and the QUORUM read waited for B's answer until
// its deadline, then failed.
func TestOutcomesThatCallsGoexitStillDeliversTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		c, err := coordinator.New(coordinator.Config{
			Locator: e.cluster, Liveness: e.cluster, Outcomes: goexitOutcomes{B},
			Snitch: coordinator.SnitchConfig{Disabled: true}, DefaultTable: policy(t, "NEVER"),
		})
		require.NoError(t, err)
		defer c.Close()
		start := time.Now()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.NoError(t, err)
		assert.Less(t, time.Since(start), time.Second, "the read waited for B's answer until its deadline")
	})
}

// goexitRead is a replica whose Read calls runtime.Goexit.
type goexitRead struct{ replica.Replica }

func (goexitRead) Read(context.Context, replica.Command) (replica.Response, error) {
	runtime.Goexit()
	return replica.Response{}, nil
}

// A replica whose Read calls Goexit fails at once, with a PanicError, as
// one that panics does. Its worker used to end with no answer handed over,
// and the read at ALL waited for it until its deadline.
func TestReplicaThatCallsGoexitFailsAsOneThatPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return goexitRead{r} }),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
		})
		require.NoError(t, err)
		defer c.Close()
		start := time.Now()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var pe *coordinator.PanicError
		require.True(t, errors.As(err, &pe), "%v", err)
		assert.Equal(t, B, pe.Endpoint.ID)
		assert.Less(t, time.Since(start), time.Second, "the read waited for B's answer until its deadline")
		synctest.Wait()
		for _, r := range c.Metrics().Replicas {
			assert.Zero(t, r.Outstanding, "%s's request is still counted in flight", r.Endpoint.ID)
		}
	})
}

// goexitObserver calls runtime.Goexit for every acknowledged repair.
type goexitObserver struct{}

func (goexitObserver) OnHedge(coordinator.HedgeEvent) {}
func (goexitObserver) OnRepair(e coordinator.RepairEvent) {
	if !e.Dropped {
		runtime.Goexit()
	}
}

// An Observer that calls Goexit on an ASYNC repair worker does not stop
// the repairs after it. It used to end the worker for good: with one
// worker, the later repairs waited in the queue and were never applied.
func TestAsyncRepairsGoOnAfterAnObserverCallsGoexit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		c, err := coordinator.New(coordinator.Config{
			Locator: e.cluster, Liveness: e.cluster, Observer: goexitObserver{}, RepairWorkers: 1,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		defer c.Close()
		for i := range 3 { // B stale each time: each read queues one repair of B
			require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v", int64(20+i)), A, C))
			_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			require.NoError(t, err)
			time.Sleep(100 * time.Millisecond) // the worker applies it
			synctest.Wait()
		}
		m := c.Metrics().Total
		assert.Equal(t, int64(3), m.RepairsSent)
		assert.Equal(t, int64(3), m.RepairsAcked, "%+v", m)
		assert.Equal(t, int64(3), e.stats(B).Mutations)
	})
}

// An Outcomes that calls Goexit after an ASYNC repair's write leaves the
// write booked. It used to leave it neither acknowledged, failed, dropped
// nor abandoned, and the worker gone.
func TestAsyncRepairWhoseOutcomesCallsGoexitIsBooked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		c, err := coordinator.New(coordinator.Config{
			Locator: e.cluster, Liveness: e.cluster, Outcomes: goexitOutcomes{B}, RepairWorkers: 1,
			Snitch: coordinator.SnitchConfig{Disabled: true}, DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		time.Sleep(time.Second)
		synctest.Wait()
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsAcked, "%+v", m)
	})
}
