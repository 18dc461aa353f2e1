package coordinator_test

import (
	"context"
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
)

type ctxKey struct{}

// ctxRecordingObserver records the context value of each event; its plain
// methods must never be called.
type ctxRecordingObserver struct {
	t       *testing.T
	mu      sync.Mutex
	hedges  []string
	repairs []string
	events  []coordinator.RepairEvent
}

func (o *ctxRecordingObserver) OnHedge(coordinator.HedgeEvent) { o.t.Error("OnHedge called") }

func (o *ctxRecordingObserver) OnRepair(coordinator.RepairEvent) { o.t.Error("OnRepair called") }

func (o *ctxRecordingObserver) OnHedgeContext(ctx context.Context, _ coordinator.HedgeEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	v, _ := ctx.Value(ctxKey{}).(string)
	o.hedges = append(o.hedges, v)
}

func (o *ctxRecordingObserver) OnRepairContext(ctx context.Context, e coordinator.RepairEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	v, _ := ctx.Value(ctxKey{}).(string)
	o.repairs = append(o.repairs, v)
	o.events = append(o.events, e)
}

// A ContextObserver gets each event once, with the context of the read it
// belongs to: a hedge, ASYNC repairs acknowledged after their reads
// returned, one Close cancels in Apply and one it drops from the queue.
func TestContextObserverEveryEventOnceWithItsRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C)) // B is stale
		obs := &ctxRecordingObserver{t: t}
		release := make(chan struct{})
		opts := policy(t, "5ms")
		opts.ReadRepair = repair.Async
		c, err := coordinator.New(coordinator.Config{
			// release is read at each Locate: B's writes wait on the gate of the time
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return gatedApply{r, release} }),
			Liveness: e.cluster, Observer: obs, RepairWorkers: 1, DefaultTable: opts,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, Snitch: coordinator.SnitchConfig{Disabled: true},
		})
		require.NoError(t, err)
		read := func(name string, level consistency.Level) coordinator.Result {
			ctx := context.WithValue(context.Background(), ctxKey{}, name)
			res, err := c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: level})
			require.NoError(t, err)
			synctest.Wait()
			return res
		}
		read("first", consistency.All)  // its repair of B waits in Apply
		read("second", consistency.All) // queued behind it
		close(release)
		time.Sleep(ms(10))
		synctest.Wait()

		e.behave(t, B, constant(ms(20)))
		res := read("hedged", consistency.Quorum) // A and B contacted, C hedged to at 5 ms
		require.True(t, res.Trace.Hedge.Fired)
		require.False(t, res.Trace.DigestMismatch)
		time.Sleep(ms(20))
		e.behave(t, B, constant(ms(1)))

		release = make(chan struct{}) // never closed
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v3", 30), A, C))
		read("third", consistency.All)  // in B's Apply at Close
		read("fourth", consistency.All) // queued at Close
		require.NoError(t, c.Close())
		synctest.Wait() // Close does not wait for a worker telling the Observer

		obs.mu.Lock()
		defer obs.mu.Unlock()
		assert.Equal(t, []string{"hedged"}, obs.hedges)
		require.Len(t, obs.events, 4)
		assert.Equal(t, []string{"first", "second"}, obs.repairs[:2])
		// third's cancelled write is told by its worker, fourth's drop by
		// Close, at once: in either order.
		assert.ElementsMatch(t, []string{"third", "fourth"}, obs.repairs[2:])
		assert.NoError(t, obs.events[0].Err)
		assert.NoError(t, obs.events[1].Err)
		for i, ev := range obs.events[2:] {
			if obs.repairs[2+i] == "fourth" {
				assert.True(t, ev.Dropped)
				continue
			}
			assert.ErrorIs(t, ev.Err, context.Canceled)
			assert.False(t, ev.Dropped)
		}
		tm := c.Metrics().Total
		assert.Equal(t, int64(4), tm.RepairsSent)
		assert.Equal(t, []int64{2, 1, 1, 0}, []int64{tm.RepairsAcked, tm.RepairsFailed, tm.RepairsDropped, tm.RepairsAbandoned})
		assert.Equal(t, int64(1), tm.SpeculativeRetries)
	})
}
