package coordinator_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// applyUntilCancelled is a replica whose repair writes run until their
// context ends, as a slow replica's do.
type applyUntilCancelled struct{ replica.Replica }

func (a applyUntilCancelled) Apply(ctx context.Context, _ replica.Mutation) error {
	<-ctx.Done()
	return ctx.Err()
}

// wrapID locates through cl, wrapping the replica with ID id.
func wrapID(cl *replicatest.Cluster, id string, wrap func(replica.Replica) replica.Replica) coordinator.LocatorFunc {
	return func(table, key string) ([]replica.Replica, consistency.Replication, error) {
		reps, repl, err := cl.Locate(table, key)
		reps = slices.Clone(reps)
		for i, r := range reps {
			if r.Endpoint().ID == id {
				reps[i] = wrap(r)
			}
		}
		return reps, repl, err
	}
}

// Close drops the repairs still queued, and counts them as dropped: none
// of them is handed to a replica once Close has begun.
func TestCloseDropsEveryQueuedAsyncRepair(t *testing.T) {
	for trial := range 20 {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{})
			require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
			var (
				mu     sync.Mutex
				events []coordinator.RepairEvent
			)
			c, err := coordinator.New(coordinator.Config{
				Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return applyUntilCancelled{r} }),
				Liveness: e.cluster, RepairWorkers: 1,
				DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
				Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
					mu.Lock()
					events = append(events, ev)
					mu.Unlock()
				}},
			})
			require.NoError(t, err)
			const reads = 5
			for range reads { // each queues a repair of B
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				require.NoError(t, err)
			}
			synctest.Wait() // the one worker is in B's Apply; the rest wait in the queue
			require.NoError(t, c.Close())
			synctest.Wait()

			m := c.Metrics().Total
			assert.Equal(t, int64(reads), m.RepairsSent, "trial %d", trial)
			assert.Equal(t, int64(1), m.RepairsFailed, "trial %d: only the write in flight is cancelled", trial)
			assert.Equal(t, int64(reads-1), m.RepairsDropped, "trial %d: every queued repair is dropped", trial)
			mu.Lock()
			defer mu.Unlock()
			dropped := 0
			for _, ev := range events {
				if ev.Dropped {
					dropped++
				}
			}
			assert.Equal(t, reads-1, dropped, "trial %d", trial)
		})
	}
}

// applyLabelRecorder records the profiler labels its Apply runs under.
type applyLabelRecorder struct {
	replica.Replica
	seen chan<- string
}

func (l applyLabelRecorder) Apply(ctx context.Context, m replica.Mutation) error {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return err
	}
	l.seen <- labelsOfGroupWith(buf.String(), "applyLabelRecorder.Apply")
	return l.Replica.Apply(ctx, m)
}

// An ASYNC repair runs under the profiler labels of the read whose repair
// it is, not under those of whichever read first started the repair
// workers. In a bubble, so that each read starts only once the repair
// before it has left Apply: a goroutine dump taken while the last one was
// still returning would hold both.
func TestAsyncRepairsRunUnderTheirReadsProfilerLabels(t *testing.T) {
	synctest.Test(t, testAsyncRepairsLabels)
}

func testAsyncRepairsLabels(t *testing.T) {
	cl := instantCluster(t)
	seen := make(chan string, 1)
	reps, _, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	stale := reps[1].Endpoint().ID
	c, err := coordinator.New(coordinator.Config{
		Locator:      wrapID(cl, stale, func(r replica.Replica) replica.Replica { return applyLabelRecorder{r, seen} }),
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async, SpeculativeRetry: policy(t, "NEVER").SpeculativeRetry},
	})
	require.NoError(t, err)
	defer c.Close()
	for i := range 4 {
		tenant := fmt.Sprint("tenant-", i)
		for _, r := range reps {
			if id := r.Endpoint().ID; id != stale {
				require.NoError(t, cl.SeedOn(tbl, row(key, tenant, int64(20+i)), id))
			}
		}
		pprof.Do(context.Background(), pprof.Labels("tenant", tenant), func(ctx context.Context) {
			_, err := c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			require.NoError(t, err)
		})
		assert.Equal(t, fmt.Sprintf(`{"tenant":%q}`, tenant), <-seen, "read %d", i)
		synctest.Wait()
	}
}

// signalApply is applyUntilCancelled that tells in when an Apply begins.
type signalApply struct {
	replica.Replica
	in chan<- struct{}
}

func (s signalApply) Apply(ctx context.Context, _ replica.Mutation) error {
	s.in <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

// An Observer that calls runtime.Goexit (t.FailNow) when Close tells it of
// a queued repair it dropped ends Close's goroutine: Close has counted
// every queued repair and stopped the idle request goroutines by then. It
// stopped halfway: the repairs behind that one were never counted, and
// the goroutines ran on (found by review). Not in a bubble, which the
// goroutines left behind by the failure would crash.
func TestCloseFinishesBeforeTellingTheObserverOfDrops(t *testing.T) {
	before := goleak.IgnoreCurrent()
	e := newEnv(t, coordinator.Config{})
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
	in := make(chan struct{}, 8)
	var armed atomic.Bool
	c, err := coordinator.New(coordinator.Config{
		Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return signalApply{r, in} }),
		Liveness: e.cluster, RepairWorkers: 1,
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
			if ev.Dropped && armed.CompareAndSwap(true, false) {
				runtime.Goexit()
			}
		}},
	})
	require.NoError(t, err)
	for range 4 { // each queues a repair of B
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
	}
	<-in // the one worker is in B's first Apply; three wait in the queue
	armed.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Close()
	}()
	<-done

	m := c.Metrics().Total
	assert.Equal(t, int64(4), m.RepairsSent)
	assert.Equal(t, int64(3), m.RepairsDropped, "%+v", m)
	assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%+v", m)
	e.c.Close()
	assert.NoError(t, goleak.Find(before), "Close stopped the idle request goroutines")
}
