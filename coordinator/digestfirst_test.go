package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

func digestFirst(t *testing.T, threshold string) coordinator.Config {
	o := policy(t, threshold)
	o.Strategy = coordinator.DigestFirst
	return coordinator.Config{DefaultTable: o}
}

// Digest first: every replica is asked for a digest; once blockFor have
// answered, the fastest is asked for the data.
func TestDigestFirstAsksTheFastestForData(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, digestFirst(t, "NEVER"))
		e.behave(t, A, constant(ms(3)))
		e.behave(t, C, constant(ms(2)))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(3), took, "B and C's digests by 2 ms, B's data at 3 ms")
		assert.True(t, res.Partition.Equal(row(key, "v1", 10)))
		for _, id := range []string{A, B, C} {
			assert.Equal(t, int64(1), e.stats(id).DigestReads, id)
		}
		assert.Equal(t, int64(1), e.stats(B).DataReads)
		assert.Zero(t, e.stats(A).DataReads+e.stats(C).DataReads)
	})
}

// When the replica chosen for the data does not answer in time, the next
// fastest is asked.
func TestDigestFirstRetriesASlowDataReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, digestFirst(t, "4ms"))
		e.behave(t, A, constant(ms(3)))
		e.behave(t, C, constant(ms(2)))
		// B answers its digest at 1 ms, then stalls: a GC from 1.5 ms.
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(1.5), End: ms(100)}}})

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(2+4+2), took, "data asked of B at 2 ms, of C at 6 ms, answered at 8 ms")
		assert.Equal(t, C, res.Trace.Hedge.To)
		assert.True(t, res.Trace.Hedge.Won)
		assert.Equal(t, int64(1), e.stats(C).DataReads)
	})
}

// The data request's hedge goes only to a replica whose digest is in: C,
// the next fastest, was convicted after the digests came in, and A, whose
// digest is still out, is no stand-in for it (it would answer data the
// read's digests say nothing of). The hedge finds no candidate, and the
// read waits for B's data, at the end of B's stall.
func TestDigestFirstHedgesTheDataOnlyToAReplicaWhoseDigestIsIn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, digestFirst(t, "4ms"))
		e.behave(t, A, constant(ms(30)))
		e.behave(t, C, constant(ms(2)))
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(1.5), End: ms(20)}}})
		go func() {
			time.Sleep(ms(3)) // after the digests, before the hedge at 6 ms
			_ = e.cluster.SetAlive(C, false)
		}()

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(21), took, "B's data, asked at 2 ms, answered after its stall")
		assert.False(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, coordinator.NoCandidate, res.Trace.Hedge.Suppressed, "%s", res.Trace)
		assert.Zero(t, e.stats(A).DataReads+e.stats(C).DataReads)
		settle()
	})
}

// A level that needs one replica reads as usual under digest first.
func TestDigestFirstAtOneIsAPlainRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, digestFirst(t, "NEVER"))
		_, _, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, int64(1), e.totalReads())
	})
}

// A digest-first read ends by its read timeout even when its data
// request's threshold would fall after it: digests at 20 ms, the data
// request then hangs, and a 40 ms threshold from 20 ms would be at 60 ms.
// The error says that blockFor replicas answered but the data did not.
func TestDigestFirstEndsByItsReadTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := digestFirst(t, "40ms")
		cfg.ReadTimeout = ms(50)
		e := newEnv(t, cfg)
		for _, id := range []string{A, B, C} {
			e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(ms(20)),
				Pauses: []replicatest.Window{{Start: ms(20), End: ms(60_000)}}})
		}

		res, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(50), took)
		assert.Equal(t, 2, timeout.BlockFor)
		assert.Equal(t, 2, timeout.Received, "the digests the read counted")
		assert.False(t, timeout.DataPresent)
		assert.False(t, res.Trace.Hedge.Fired)
	})
}

// Under ALWAYS, digest-first asks the two fastest digest replicas for the
// data at once, not when a zero threshold's timer fires: with replicas
// that answer at once, the fastest's data would win that race, and the
// read would go without the extra request ALWAYS promises (DESIGN.md 2.2:
// ALWAYS sends the extra request up front).
func TestDigestFirstUnderAlwaysAsksTwoForDataUpFront(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := digestFirst(t, "ALWAYS")
		cfg.HedgeBudget = coordinator.HedgeBudget{Unlimited: true}
		e := newEnv(t, cfg)
		for _, id := range []string{A, B, C} {
			e.behave(t, id, replicatest.Behavior{}) // answers at once
		}
		const reads = 10
		for range reads {
			res, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			data := 0
			for _, rt := range res.Trace.Requests {
				if rt.Kind == coordinator.KindData {
					data++
				}
			}
			require.Equal(t, 2, data, "data requests:\n%v", res.Trace)
			require.True(t, res.Trace.Hedge.Fired)
			settle()
		}
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(reads), tm.SpeculativeRetries)
	})
}
