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
)

// stalledA is newEnv with A, the data replica, answering only after
// 200 ms: a QUORUM read has B's digest at 1 ms and waits for data.
func stalledA(t *testing.T, cfg coordinator.Config) *env {
	t.Helper()
	cfg.Snitch.Disabled = true // A stays the data replica
	e := newEnv(t, cfg)
	e.behave(t, A, constant(ms(200)))
	return e
}

func readWithin(e *env, d time.Duration) (coordinator.Result, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	return res, time.Since(start), err
}

// A threshold equal to the read timeout cannot help: no hedge, the read
// times out. One just below it hedges and completes.
func TestHedgeThresholdAtTheReadTimeout(t *testing.T) {
	for _, c := range []struct {
		policy string
		hedged bool
	}{{"50ms", false}, {"51ms", false}, {"48ms", true}} {
		synctest.Test(t, func(t *testing.T) {
			e := stalledA(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, c.policy)})
			res, took, err := e.read(consistency.Quorum)
			assert.Equal(t, c.hedged, res.Trace.Hedge.Fired, c.policy)
			assert.True(t, res.Trace.Speculate, c.policy)
			m := e.c.Metrics().Total
			if c.hedged {
				require.NoError(t, err, c.policy)
				assert.Equal(t, ms(48), res.Trace.Hedge.At)
				assert.Equal(t, C, res.Trace.Hedge.To)
				assert.Equal(t, ms(49), took)
				assert.Equal(t, int64(1), m.SpeculativeRetries)
				return
			}
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout, c.policy)
			assert.Equal(t, ms(50), took, c.policy)
			assert.Zero(t, m.SpeculativeRetries, c.policy)
			assert.Equal(t, int64(2), e.totalReads(), "%s: A and B only", c.policy)
			settle()
		})
	}
}

// The caller's deadline bounds the hedge as the read timeout does: a
// threshold that would fire at or past it does not.
func TestHedgeThresholdAtTheCallersDeadline(t *testing.T) {
	for _, c := range []struct {
		policy string
		hedged bool
	}{{"30ms", false}, {"40ms", false}, {"28ms", true}} {
		synctest.Test(t, func(t *testing.T) {
			e := stalledA(t, coordinator.Config{ReadTimeout: ms(1000), DefaultTable: policy(t, c.policy)})
			res, took, err := readWithin(e, ms(30))
			assert.Equal(t, c.hedged, res.Trace.Hedge.Fired, c.policy)
			if c.hedged {
				require.NoError(t, err, c.policy)
				assert.Equal(t, ms(29), took)
				return
			}
			assert.Error(t, err, c.policy)
			assert.Equal(t, ms(30), took, c.policy)
			assert.Zero(t, e.c.Metrics().Total.SpeculativeRetries, c.policy)
			assert.Equal(t, int64(2), e.totalReads(), c.policy)
			settle()
		})
	}
}

// Before any sample a percentile threshold is half the read timeout: the
// first read of a table hedges exactly then. MIN and MAX start there too,
// as Cassandra's hybrid policy keeps its existing value over an empty
// snapshot.
func TestFirstReadHedgesAtHalfTheTimeout(t *testing.T) {
	for _, p := range []string{"99p", "50p", "MIN(99p,1ms)", "MAX(99p,1ms)"} {
		synctest.Test(t, func(t *testing.T) {
			e := stalledA(t, coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, p)})
			res, took, err := e.read(consistency.Quorum)
			require.NoError(t, err, p)
			assert.Equal(t, ms(50), res.Trace.Threshold, p)
			assert.True(t, res.Trace.Hedge.Fired, p)
			assert.Equal(t, ms(50), res.Trace.Hedge.At, p)
			assert.Equal(t, ms(51), took, p)
			settle()
		})
	}
}

// A table idle for longer than its latency window keeps the threshold its
// reads had taught it, not half the read timeout again.
func TestIdleTableKeepsItsThreshold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "90p"), LatencyWindow: 3 * time.Second,
			ThresholdRefresh: ms(10)})
		readMany(t, e.c, 1, 50)
		warm := e.c.Metrics().Tables[0].Threshold
		assert.InDelta(t, float64(ms(1)), float64(warm), float64(ms(0.02)), "%v", warm)

		time.Sleep(time.Minute)
		assert.Equal(t, warm, e.c.Metrics().Tables[0].Threshold)
		e.behave(t, A, constant(ms(200)))
		e.behave(t, B, constant(ms(200)))
		e.behave(t, C, constant(ms(200)))
		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, warm, res.Trace.Threshold, "the empty window kept the threshold")
		assert.True(t, res.Trace.Hedge.Fired)
		assert.Equal(t, warm, res.Trace.Hedge.At, "hedged at the kept threshold, not at half the timeout")
		assert.Equal(t, ms(200), took)
		settle()
	})
}

// NEVER sends nothing beyond the contacts, counts no suppression, and the
// read waits for the slow replica; EACH_QUORUM never hedges either.
func TestNeverAndEachQuorumNeverHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.False(t, res.Trace.Speculate)
		assert.False(t, res.Trace.Hedge.Fired)
		assert.Equal(t, coordinator.NotSuppressed, res.Trace.Hedge.Suppressed)
		assert.Equal(t, ms(200), took)
		m := e.c.Metrics().Total
		assert.Zero(t, m.SpeculativeRetries+m.NoCandidate+m.SuppressedBudget+m.SuppressedOverload)
		tm := e.c.Metrics().Tables[0]
		assert.False(t, tm.Speculating)
	})
	synctest.Test(t, func(t *testing.T) {
		e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "1ms")})
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.EachQuorum})
		require.NoError(t, err)
		assert.False(t, res.Trace.Hedge.Fired)
		assert.Zero(t, e.c.Metrics().Total.SpeculativeRetries)
	})
}

// ALWAYS sends its extra request with the first ones, at 0: at QUORUM
// data to the two closest and a digest to the third, as Cassandra's
// AlwaysSpeculatingReadExecutor; at ONE data to two.
func TestAlwaysSendsTheExtraRequestUpFront(t *testing.T) {
	for _, c := range []struct {
		level consistency.Level
		kinds []coordinator.RequestKind
	}{
		{consistency.Quorum, []coordinator.RequestKind{coordinator.KindData, coordinator.KindData, coordinator.KindDigest}},
		{consistency.One, []coordinator.RequestKind{coordinator.KindData, coordinator.KindData}},
	} {
		synctest.Test(t, func(t *testing.T) {
			e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS")})
			res, took, err := e.read(c.level)
			require.NoError(t, err, "%v", c.level)
			assert.Equal(t, ms(1), took, "%v: the extra request answered at once", c.level)
			require.Len(t, res.Trace.Requests, len(c.kinds), "%v", c.level)
			for i, rt := range res.Trace.Requests {
				assert.Equal(t, c.kinds[i], rt.Kind, "%v request %d", c.level, i)
				assert.Zero(t, rt.Sent, "%v request %d is sent up front", c.level, i)
				assert.Equal(t, i == len(c.kinds)-1, rt.Speculative, "%v request %d", c.level, i)
			}
			assert.True(t, res.Trace.Hedge.Fired)
			assert.Zero(t, res.Trace.Hedge.At)
			assert.Equal(t, int64(1), e.c.Metrics().Total.SpeculativeRetries)
			settle()
		})
	}
}

// A hedge that is itself slow is recorded as what the round took (the
// threshold plus the hedge's time): the percentile threshold climbs to
// where hedging stops paying, never down to the hedge's own latency.
func TestSlowHedgeDoesNotPullTheThresholdToItsLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{
			DefaultTable:     policy(t, "50p"),
			ThresholdRefresh: ms(1),
			LatencyWindow:    3 * time.Second,
			Snitch:           coordinator.SnitchConfig{Disabled: true},
			HedgeBudget:      coordinator.HedgeBudget{Unlimited: true},
		})
		readMany(t, e.c, 1, 20)
		e.behave(t, A, constant(ms(100))) // the data replica
		e.behave(t, C, constant(ms(40)))  // the hedge's target
		for range 200 {
			_, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
		}
		time.Sleep(5 * time.Second) // the warm-up's 1 ms reads leave the window
		for range 100 {
			_, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
		}
		th := e.c.Metrics().Tables[0].Threshold
		assert.Greater(t, th, ms(80), "threshold %v: well above the hedge's 40 ms", th)
		settle()
	})
}

// The hedge asks for a digest when the data is in and only digests are
// missing (Cassandra's copyAsDigestQuery), and for data otherwise.
func TestHedgeKindFollowsWhatIsMissing(t *testing.T) {
	for _, c := range []struct {
		slow string
		kind coordinator.RequestKind
	}{{A, coordinator.KindData}, {B, coordinator.KindDigest}} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms"), Snitch: coordinator.SnitchConfig{Disabled: true}})
			e.behave(t, c.slow, constant(ms(200)))
			res, took, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			require.True(t, res.Trace.Hedge.Fired)
			assert.Equal(t, C, res.Trace.Hedge.To)
			last := res.Trace.Requests[len(res.Trace.Requests)-1]
			assert.True(t, last.Speculative)
			assert.Equal(t, c.kind, last.Kind, "slow %s", c.slow)
			assert.Equal(t, ms(6), took)
			settle()
		})
	}
}

// A policy changed at run time governs the next read: NEVER, then a fixed
// 5 ms, then ALWAYS.
func TestPolicyChangeTakesEffectOnTheNextRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: ms(100)})
		_, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(100), took)

		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "5ms")))
		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(5), res.Trace.Hedge.At)
		assert.Equal(t, ms(6), took)

		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "ALWAYS")))
		res, took, err = e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Zero(t, res.Trace.Hedge.At)
		assert.True(t, res.Trace.Hedge.Fired)
		assert.Equal(t, ms(1), took)
		settle()
	})
}
