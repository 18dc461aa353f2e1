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
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A request that answered before its read ended is Answered in the trace,
// with its time, though no round took its answer: a first-round hedge
// answering while the read repairs, after the reconcile round started
// (its channel no longer read), and one whose round had done without it.
// One that answers after the read ended stays Pending.
func TestTraceBooksAnswersThatCameAfterTheirRound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const ms = time.Millisecond
		cl, _ := staleTrio(t, trio2)
		r2, r3 := trio2, trio3
		sr, err := latency.ParseSpeculativeRetry("15ms")
		require.NoError(t, err)
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl,
			DefaultTable: coordinator.TableOptions{SpeculativeRetry: sr}})
		require.NoError(t, err)
		defer c.Close()

		// r1 and r2 answer at 10 and 20 ms, their digests differ; r3's
		// hedge, sent at 15 ms, answers at 55, during the repair of r2
		// (20 to 40 ms, the reconcile read of r3 until 60).
		res, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
		require.NoError(t, err)
		require.Equal(t, 60*ms, res.Trace.Duration, res.Trace.String())
		var hedge *coordinator.RequestTrace
		for i, rq := range res.Trace.Requests {
			if rq.Endpoint == r3 && rq.Phase == coordinator.PhaseSpeculative {
				hedge = &res.Trace.Requests[i]
			}
		}
		require.NotNil(t, hedge, res.Trace.String())
		assert.Equal(t, coordinator.Answered, hedge.Outcome, res.Trace.String())
		assert.Equal(t, 55*ms, hedge.Done)
		assert.False(t, hedge.Used)

		// Read again, r3 now at 100 ms: its hedge (at 15 ms) answers after
		// the read ended (the repair done by then), and stays Pending.
		require.NoError(t, cl.SeedOn("t", replica.NewPartition("k", replica.NewRow("", replica.Live("v", "older", 500))), r2))
		require.NoError(t, cl.Replica(r3).SetLatency(replicatest.Constant(100*ms)))
		res, err = c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
		require.NoError(t, err)
		for _, rq := range res.Trace.Requests {
			if rq.Endpoint == r3 {
				assert.Equal(t, coordinator.Pending, rq.Outcome, res.Trace.String())
				assert.Zero(t, rq.Done)
			}
		}
		require.NoError(t, c.DrainRepairs(context.Background()))
	})
}
