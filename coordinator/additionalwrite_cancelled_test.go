package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
)

// An additional write still out when the read returns is Pending in the
// trace and cancelled, not queued as a stale replica's write is (the
// trace's and the README's word, which said queued): its replica's data
// never came, so it is not known to be stale, and a later read repairs it
// if it is. (Found by a review.)
func TestAnAdditionalWriteStillOutIsCancelledNotQueued(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, old := staleTrio(t, trio2, trio3)
		r2, r3 := trio2, trio3
		never, err := latency.ParseSpeculativeRetry("NEVER")
		require.NoError(t, err)
		after5ms, err := latency.ParseSpeculativeRetry("5ms")
		require.NoError(t, err)
		var events []coordinator.RepairEvent
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl,
			Observer: coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) { events = append(events, e) }},
			DefaultTable: coordinator.TableOptions{SpeculativeRetry: never, ReadRepair: repair.Blocking,
				AdditionalWritePolicy: after5ms}})
		require.NoError(t, err)
		defer c.Close()

		// r1 (data) and r2 (digest) disagree; r2 is repaired from 40 ms to
		// 60 ms, and at 45 ms an additional write of the merge goes to r3,
		// which would acknowledge at 85 ms. The read returns at 60 ms.
		res, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
		require.NoError(t, err)
		require.True(t, res.Trace.AdditionalWrite.Fired, res.Trace.String())
		var additional []coordinator.RequestTrace
		for _, rq := range res.Trace.Requests {
			if rq.Kind == coordinator.KindRepair && rq.Endpoint == r3 {
				additional = append(additional, rq)
			}
		}
		require.Len(t, additional, 1, res.Trace.String())
		assert.Equal(t, coordinator.Pending, additional[0].Outcome)

		time.Sleep(time.Second)
		require.NoError(t, c.DrainRepairs(context.Background()))
		p, ok := cl.Replica(r3).Partition("t", "k")
		require.True(t, ok)
		assert.True(t, p.Equal(old), "r3 holds %v", p)
		stats := cl.Replica(r3).Stats()
		assert.Equal(t, int64(1), stats.Mutations)
		assert.Equal(t, int64(1), stats.Cancellations)
		require.Len(t, events, 1, "the stale replica's repair alone")
		assert.Equal(t, r2, events[0].To.ID)
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.AdditionalWrites)
	})
}
