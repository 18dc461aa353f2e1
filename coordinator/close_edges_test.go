package coordinator_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Reads in flight when Close is called finish normally; the ASYNC repairs
// they queue after it are dropped, counted and told to the Observer, and
// never reach a replica; a read after Close fails with ErrClosed, sends
// nothing and counts nowhere; two concurrent Closes both return.
func TestCloseWhileReadsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &repairRecorder{}
		e := newEnv(t, coordinator.Config{Observer: obs,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async}})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C)) // B is stale
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(10)))
		}
		const reads = 3
		var wg sync.WaitGroup
		errs := make([]error, reads)
		results := make([]coordinator.Result, reads)
		for i := range reads {
			wg.Go(func() {
				results[i], errs[i] = e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			})
		}
		time.Sleep(ms(5)) // every read's first round is out
		var closers sync.WaitGroup
		for range 2 {
			closers.Go(func() { assert.NoError(t, e.c.Close()) })
		}
		closers.Wait()
		wg.Wait()
		settle()
		var stale int64 // the reads that contacted B (the snitch spreads them by load)
		for i := range reads {
			require.NoError(t, errs[i], "read %d was in flight at Close", i)
			assert.True(t, results[i].Partition.Equal(row(key, "v2", 20)))
			if results[i].Trace.DigestMismatch {
				stale++
				assert.Equal(t, []string{B}, results[i].Trace.Repaired)
			}
		}
		require.Positive(t, stale)
		before := e.totalReads()
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.ErrorIs(t, err, coordinator.ErrClosed)
		assert.Zero(t, res.Trace.Requests)
		settle()
		assert.Equal(t, before, e.totalReads(), "a read after Close sends nothing")

		m := e.c.Metrics().Total
		assert.Equal(t, int64(reads), m.Reads, "the read refused after Close is not counted")
		assert.Equal(t, stale, m.RepairsSent)
		assert.Equal(t, stale, m.RepairsDropped)
		assert.Equal(t, stale, m.DigestMismatches)
		assert.Zero(t, m.RepairsAcked+m.RepairsFailed+m.RepairsAbandoned)
		assert.Zero(t, e.stats(B).Mutations, "a dropped repair never reaches its replica")
		_, repairs := obs.snapshot()
		require.Len(t, repairs, int(stale))
		for _, r := range repairs {
			assert.True(t, r.Dropped)
			assert.Equal(t, B, r.To.ID)
			assert.Equal(t, repair.Async, r.Mode)
			assert.True(t, r.Sent.IsZero())
		}
		assert.NoError(t, e.c.Close(), "a third Close")
	})
}

// A repair write in flight whose replica honours its context is cancelled
// by Close, which returns at once (no wait for the read timeout): failed,
// not abandoned, and its event carries the cancellation.
func TestCloseCancelsARepairInFlightAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		obs := &repairRecorder{}
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return applyUntilCancelled{r} }),
			Liveness: e.cluster, Observer: obs,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		time.Sleep(time.Second) // the repair waits in B's Apply
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Zero(t, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped, "still running")

		start := time.Now()
		require.NoError(t, c.Close())
		assert.Zero(t, time.Since(start))
		m = c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsFailed)
		assert.Zero(t, m.RepairsAbandoned+m.RepairsDropped+m.RepairsAcked)
		synctest.Wait() // Close does not wait for the worker telling the Observer
		_, repairs := obs.snapshot()
		require.Len(t, repairs, 1)
		assert.ErrorIs(t, repairs[0].Err, context.Canceled)
		assert.False(t, repairs[0].Dropped)
		assert.Equal(t, time.Second, repairs[0].Took)
	})
}

// A full ASYNC queue drops the repair that finds it full: counted, told
// with Dropped, never sent; the ones queued run in order once the replica
// answers.
func TestFullRepairQueueDropsAndCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		obs := &repairRecorder{}
		release := make(chan struct{})
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return gatedApply{r, release} }),
			Liveness: e.cluster, Observer: obs, RepairQueue: 1, RepairWorkers: 1,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		defer c.Close()
		const reads = 4
		for range reads {
			_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			require.NoError(t, err)
			synctest.Wait()
		}
		// the first is in Apply, the second queued, the last two dropped
		tm, ok := c.TableMetrics(tbl)
		require.True(t, ok)
		assert.Equal(t, int64(reads), tm.RepairsSent)
		assert.Equal(t, int64(2), tm.RepairsDropped)
		_, repairs := obs.snapshot()
		require.Len(t, repairs, 2)
		for _, r := range repairs {
			assert.True(t, r.Dropped)
		}
		close(release)
		time.Sleep(ms(10)) // both queued repairs are applied, 1 ms each
		synctest.Wait()
		tm, _ = c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.RepairsAcked)
		assert.Equal(t, tm.RepairsSent, tm.RepairsAcked+tm.RepairsDropped)
		assert.Equal(t, int64(2), e.stats(B).Mutations)
		_, repairs = obs.snapshot()
		assert.Len(t, repairs, reads)
	})
}

// gatedApply's repair writes wait until release is closed.
type gatedApply struct {
	replica.Replica
	release <-chan struct{}
}

func (g gatedApply) Apply(ctx context.Context, m replica.Mutation) error {
	select {
	case <-g.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.Replica.Apply(ctx, m)
}

// Requests abandoned to a replica that ignores its context are counted in
// its ReplicaMetrics.Abandoned, capped at MaxAbandonedPerReplica (a request
// past the cap is refused unsent: traced as failed at once with a
// *BacklogError, counted in the table's requests but not the replica's,
// never reaching it), and released as they return.
func TestAbandonedRequestsCappedAndReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 2,
			DefaultTable: policy(t, "NEVER")})
		e.behave(t, C, replicatest.Behavior{Latency: replicatest.Constant(time.Second), Fault: replicatest.IgnoresContext()})
		abandoned := func() (n, requests int64) {
			for _, rm := range e.c.Metrics().Replicas {
				if rm.Endpoint.ID == C {
					return rm.Abandoned, rm.Requests
				}
			}
			t.Fatal("no metrics for C")
			return 0, 0
		}
		for i := range 2 {
			_, _, err := e.read(consistency.All)
			var rte *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &rte)
			settle()
			n, _ := abandoned()
			assert.Equal(t, int64(i+1), n)
		}
		assert.Equal(t, int64(2), e.stats(C).Reads)

		res, took, err := e.read(consistency.All)
		var rfe *consistency.ReadFailureError
		require.ErrorAs(t, err, &rfe, "C is at its cap: the read fails at once\n%s", res.Trace)
		assert.Zero(t, took)
		var refused []coordinator.RequestTrace
		for _, rq := range res.Trace.Requests {
			var be *coordinator.BacklogError
			if errors.As(rq.Err, &be) {
				refused = append(refused, rq)
				assert.Equal(t, int64(2), be.Abandoned)
			}
		}
		require.Len(t, refused, 1)
		assert.Equal(t, C, refused[0].Endpoint)
		assert.Equal(t, coordinator.Failed, refused[0].Outcome)
		assert.Equal(t, refused[0].Sent, refused[0].Done)
		settle()
		assert.Equal(t, int64(2), e.stats(C).Reads, "the refused request never reached C")
		n, requests := abandoned()
		assert.Equal(t, int64(2), n)
		assert.Equal(t, int64(2), requests, "nor counts in its replica's requests")
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(3*2), tm.DigestRequests, "but in the table's")
		assert.Equal(t, int64(2), tm.Timeouts)
		assert.Equal(t, int64(1), tm.Failures)

		time.Sleep(time.Second) // the hung requests return
		settle()
		n, _ = abandoned()
		assert.Zero(t, n, "released as they return")
		e.behave(t, C, constant(ms(1)))
		_, _, err = e.read(consistency.All)
		require.NoError(t, err)
		assert.Equal(t, int64(3), e.stats(C).Reads)
	})
}

// MaxInFlight: while more reads than it are in flight a due hedge is
// suppressed and counted as overload; with one read in flight it is sent.
func TestMaxInFlightSuppressesHedges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &repairRecorder{}
		e := newEnv(t, coordinator.Config{MaxInFlight: 1, Observer: obs, DefaultTable: policy(t, "5ms"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
			Snitch:      coordinator.SnitchConfig{Disabled: true}}) // both reads contact A and B
		e.behave(t, B, constant(ms(20)))
		var wg sync.WaitGroup
		results := make([]coordinator.Result, 2)
		for i := range results {
			wg.Go(func() {
				var err error
				results[i], _, err = e.read(consistency.Quorum)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		settle()
		for _, res := range results {
			assert.False(t, res.Trace.Hedge.Fired)
			assert.Equal(t, coordinator.SuppressedOverload, res.Trace.Hedge.Suppressed)
			assert.Equal(t, ms(5), res.Trace.Hedge.At)
		}
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.SuppressedOverload)
		assert.Zero(t, tm.SpeculativeRetries)
		assert.Zero(t, e.stats(C).Reads)
		hedges, _ := obs.snapshot()
		assert.Empty(t, hedges)

		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Trace.Hedge.Fired, "one read in flight is not more than MaxInFlight")
		tm, _ = e.c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.SuppressedOverload)
		assert.Equal(t, int64(1), tm.SpeculativeRetries)
		hedges, _ = obs.snapshot()
		require.Len(t, hedges, 1)
		assert.Equal(t, C, hedges[0].To.ID)
		assert.Equal(t, coordinator.PhaseInitial, hedges[0].Phase)
		assert.Equal(t, res.Trace.Hedge.At, hedges[0].At)
	})
}
