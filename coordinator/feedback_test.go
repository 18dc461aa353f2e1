package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A replica that is always slow, and always hedged around, must not drag a
// percentile threshold down to the fast replicas' latency: hedged reads are
// recorded at the threshold plus the hedge's time, so the threshold climbs
// until hedging stops paying.
func TestAlwaysSlowReplicaDoesNotDriveTheThresholdDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{
			DefaultTable:     policy(t, "90p"),
			ThresholdRefresh: ms(5),
			Snitch:           coordinator.SnitchConfig{Disabled: true}, // A stays first in line
			HedgeBudget:      coordinator.HedgeBudget{Unlimited: true},
		})
		readMany(t, e.c, 4, 50) // warm up: every replica answers in 1 ms
		last := e.c.Metrics().Tables[0].Threshold

		e.behave(t, A, constant(ms(50)))
		for range 10 {
			readMany(t, e.c, 4, 25)
			th := e.c.Metrics().Tables[0].Threshold
			assert.GreaterOrEqual(t, th, last, "the threshold never falls while every read hedges")
			last = th
		}
		assert.Greater(t, last, ms(3), "well above the 1 ms of the replicas that answer")
		m := e.c.Metrics().Total
		assert.Greater(t, m.HedgeWins, int64(900))
	})
}

// With a percentile policy Xp on a stationary workload, about (100-X) % of
// reads hedge.
func TestHedgeRateSettlesNearThePercentile(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{
			DefaultTable:     policy(t, "90p"),
			ThresholdRefresh: ms(20),
			HedgeBudget:      coordinator.HedgeBudget{Unlimited: true},
		})
		for _, r := range e.cluster.Replicas() {
			require.NoError(t, r.SetBehavior(replicatest.Behavior{Latency: replicatest.LogNormal(ms(2), 0.5)}))
		}
		readMany(t, e.c, 8, 100) // warm up: let the threshold find the 90th percentile
		before := e.c.Metrics().Total

		readMany(t, e.c, 8, 500)
		after := e.c.Metrics().Total
		rate := float64(after.SpeculativeRetries-before.SpeculativeRetries) / float64(after.Reads-before.Reads)
		assert.InDelta(t, 0.10, rate, 0.04, "hedge rate %.3f", rate)
		t.Logf("hedge rate %.3f", rate)
	})
}

// Reads their callers give up on once they have run past the threshold
// are the threshold's tail, though their end is unknown: recorded at the
// cancellation, they keep a percentile where the replicas' latency puts
// it. Left out, as they were, half the reads running 100 ms and cancelled
// at 10 ms left a 75p threshold at the 1 ms of the reads that finished,
// and every slow read hedging at once. A caller's deadline at 10 ms, past
// the tail, is recorded alike (timedOutToRecord).
func TestReadsCancelledPastTheThresholdHoldItUp(t *testing.T) {
	for _, deadline := range []bool{false, true} {
		t.Run(fmt.Sprintf("deadline=%v", deadline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "75p"), ThresholdRefresh: ms(5)})
				readMany(t, e.c, 1, 20) // every replica answers in 1 ms
				for range 50 {
					readFastThenGiveUpOnSlow(t, e, deadline)
				}
				time.Sleep(ms(10))
				th := e.c.Metrics().Tables[0].Threshold
				assert.Greater(t, th, ms(5), "half the reads ran 10 ms and more")
				assert.LessOrEqual(t, th, ms(11), "no more than they were seen to run")
			})
		})
	}
}

// readFastThenGiveUpOnSlow makes one read that every replica answers in
// 1 ms, then one that they answer in 100 ms, which its caller cancels at
// 10 ms, or whose caller's deadline ends it then.
func readFastThenGiveUpOnSlow(t *testing.T, e *env, deadline bool) {
	t.Helper()
	for _, d := range []time.Duration{ms(1), ms(100)} {
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(d))
		}
		if d == ms(1) {
			_, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			continue
		}
		if deadline {
			ctx, cancel := context.WithTimeout(context.Background(), ms(10))
			_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			cancel()
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout)
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		stop := time.AfterFunc(ms(10), cancel)
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.ErrorIs(t, err, context.Canceled)
		stop.Stop()
		cancel()
	}
}
