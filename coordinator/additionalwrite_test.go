package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica/replicatest"
)

// newDisagreeingEnv is a cluster whose replica A (asked for data) holds
// val1 and B (asked for a digest) and C val2, written at the same
// timestamp, so val2 wins and a read repairs A, under the additional-write
// policy writePolicy.
func newDisagreeingEnv(t *testing.T, writePolicy string) *env {
	t.Helper()
	p, err := latency.ParseSpeculativeRetry(writePolicy)
	require.NoError(t, err)
	e := newEnv(t, coordinator.Config{DefaultTable: coordinator.TableOptions{AdditionalWritePolicy: p}})
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val1", 20), A))
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val2", 20), B, C))
	return e
}

// newUnackedEnv is the scenario of Cassandra's maybeSendAdditionalWrites:
// newDisagreeingEnv, where A answers its reads at 1 ms and then stalls on
// the repair write it is sent at 2 ms.
func newUnackedEnv(t *testing.T, writePolicy string) *env {
	t.Helper()
	e := newDisagreeingEnv(t, writePolicy)
	e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
		Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})
	return e
}

// Once the additional-write threshold (5 ms) passes from when the repair
// writes were sent, the merge of the unacknowledged repairs goes to C, the
// replica the read did not contact, whose acknowledgement completes the
// repair: the read returns at 8 ms instead of timing out.
func TestAdditionalWritesCompleteAStalledRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newUnackedEnv(t, "5ms")

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "val2", 20)))
		assert.Equal(t, ms(8), took, "repair sent at 2 ms, additional write at 7 ms, acked at 8 ms")
		h := res.Trace.AdditionalWrite
		assert.True(t, h.Fired)
		assert.Equal(t, C, h.To)
		assert.Equal(t, ms(7), h.At)
		assert.Equal(t, 1, countSpeculative(res.Trace, coordinator.PhaseRepair))
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.AdditionalWrites)
		assert.Equal(t, int64(1), m.RepairsSent, "A's repair; the additional write is counted apart")
	})
}

// Before any repair write has been measured the additional-write
// threshold is half the read timeout, as Cassandra starts at half the
// write timeout.
func TestAdditionalWritesBeforeAnySampleWaitHalfTheReadTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newUnackedEnv(t, "99p")

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(2)+2500*time.Millisecond, res.Trace.AdditionalWrite.At)
		assert.Equal(t, ms(3)+2500*time.Millisecond, took)
	})
}

// Under NEVER no additional write is sent and the stalled repair times the
// read out, as before.
func TestNoAdditionalWritesUnderNever(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newUnackedEnv(t, "NEVER")
		res, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		assert.Zero(t, e.c.Metrics().Total.AdditionalWrites)
	})
}

// Additional writes are a speculative action like a hedge: with the
// budget spent they are suppressed, and the stalled repair times out.
func TestAdditionalWritesAreBudgeted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, err := latency.ParseSpeculativeRetry("5ms")
		require.NoError(t, err)
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(100), HedgeBudget: coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1},
			DefaultTable: coordinator.TableOptions{AdditionalWritePolicy: p}})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val1", 20), A))
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val2", 20), B, C))
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})

		res, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, coordinator.SuppressedBudget, res.Trace.AdditionalWrite.Suppressed)
		assert.Zero(t, e.c.Metrics().Total.AdditionalWrites)
	})
}

// The overload switch's threshold half is each round's own (DESIGN 2.4):
// a read threshold past the read timeout holds back first-round hedges,
// not the repair round's additional writes, whose own threshold (5 ms) is
// well within it: the stalled repair still completes through C.
func TestAReadThresholdPastTheTimeoutHoldsBackNoAdditionalWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := policy(t, "60ms") // past the 50 ms read timeout
		o.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: o})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val1", 20), A))
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val2", 20), B, C))
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})

		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err, "%s", res.Trace)
		h := res.Trace.AdditionalWrite
		assert.Equal(t, coordinator.NotSuppressed, h.Suppressed, "%s", res.Trace)
		assert.True(t, h.Fired, "%s", res.Trace)
		assert.Equal(t, C, h.To)
		assert.Zero(t, e.c.Metrics().Total.SuppressedOverload)
		settle()
	})
}
