package coordinator_test

import (
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica/replicatest"
)

// The Observer hears once of a later round's speculative action, as the
// trace records it: the reconcile read to C in PhaseReconcile as a data
// request, the additional writes in PhaseRepair as a repair, each with
// HedgeTrace's At and To.
func TestLaterRoundsHedgeEventsMatchTheTrace(t *testing.T) {
	cases := []struct {
		name  string
		build func(*testing.T, coordinator.Observer) *env
		phase coordinator.Phase
		kind  coordinator.RequestKind
		hedge func(coordinator.Trace) coordinator.HedgeTrace
	}{
		{"reconcile read", func(t *testing.T, o coordinator.Observer) *env {
			return newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms"), Observer: o})
		}, coordinator.PhaseReconcile, coordinator.KindData, func(tr coordinator.Trace) coordinator.HedgeTrace { return tr.ReconcileHedge }},
		{"additional writes", func(t *testing.T, o coordinator.Observer) *env {
			p, err := latency.ParseSpeculativeRetry("5ms")
			require.NoError(t, err)
			e := newEnv(t, coordinator.Config{DefaultTable: coordinator.TableOptions{AdditionalWritePolicy: p, SpeculativeRetry: latency.Never()}, Observer: o})
			require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val1", 20), A))
			require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val2", 20), B, C))
			e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
				Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})
			return e
		}, coordinator.PhaseRepair, coordinator.KindRepair, func(tr coordinator.Trace) coordinator.HedgeTrace { return tr.AdditionalWrite }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				var got []coordinator.HedgeEvent
				e := c.build(t, coordinator.ObserverFuncs{Hedge: func(ev coordinator.HedgeEvent) {
					mu.Lock()
					got = append(got, ev)
					mu.Unlock()
				}})
				res, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				h := c.hedge(res.Trace)
				require.True(t, h.Fired, res.Trace.String())
				mu.Lock()
				defer mu.Unlock()
				require.Len(t, got, 1, "only this round speculated: %s", res.Trace.String())
				ev := got[0]
				assert.Equal(t, c.phase, ev.Phase)
				assert.Equal(t, c.kind, ev.Kind)
				assert.Equal(t, h.To, ev.To.ID)
				assert.Equal(t, h.At, ev.At)
				assert.Equal(t, res.Trace.Threshold, ev.Threshold)
				assert.Equal(t, tbl, ev.Table)
				assert.Equal(t, key, ev.Key)
			})
		})
	}
}
