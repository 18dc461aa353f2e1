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
	"github.com/readpath/readpath/replica/replicatest"
)

type readIDKey struct{}

// ctxObserver records the read ID each event's context carries.
type ctxObserver struct {
	mu              sync.Mutex
	hedges, repairs []string
	plain           int
}

func (o *ctxObserver) OnHedge(coordinator.HedgeEvent)   { o.mu.Lock(); o.plain++; o.mu.Unlock() }
func (o *ctxObserver) OnRepair(coordinator.RepairEvent) { o.mu.Lock(); o.plain++; o.mu.Unlock() }

func (o *ctxObserver) OnHedgeContext(ctx context.Context, _ coordinator.HedgeEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hedges = append(o.hedges, ctx.Value(readIDKey{}).(string))
}

func (o *ctxObserver) OnRepairContext(ctx context.Context, _ coordinator.RepairEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.repairs = append(o.repairs, ctx.Value(readIDKey{}).(string))
}

// A ContextObserver gets the context of the read each event belongs to, so
// that a tracer can attach a hedge to the caller's span, and link to it an
// ASYNC repair that ends after the read returned.
func TestContextObserverGetsTheReadsContext(t *testing.T) {
	for _, mode := range []repair.Mode{repair.Blocking, repair.Async} {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				obs := &ctxObserver{}
				opts := policy(t, "4ms")
				opts.ReadRepair = mode
				e := newEnv(t, coordinator.Config{DefaultTable: opts, Observer: obs})
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
				e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
					Pauses: []replicatest.Window{{Start: 0, End: ms(80)}}})

				ctx := context.WithValue(context.Background(), readIDKey{}, "read-1")
				res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				require.NoError(t, err)
				require.True(t, res.Trace.Hedge.Fired)
				require.True(t, res.Trace.DigestMismatch)
				time.Sleep(ms(100)) // the ASYNC repair, and the paused A, finish
				synctest.Wait()

				obs.mu.Lock()
				defer obs.mu.Unlock()
				assert.Equal(t, []string{"read-1"}, obs.hedges)
				assert.Equal(t, []string{"read-1"}, obs.repairs, "B was stale")
				assert.Zero(t, obs.plain, "the Context methods replace OnHedge and OnRepair")
			})
		})
	}
}
