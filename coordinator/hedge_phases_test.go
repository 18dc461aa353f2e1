package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// The reconcile round's speculation, due 10 ms after the mismatch at 1 ms,
// is not sent when the caller's deadline falls at or before 11 ms; with
// time to spare it is, and the read completes.
func TestReconcileHedgeWithinTheCallersDeadline(t *testing.T) {
	for _, c := range []struct {
		deadline float64
		fired    bool
	}{{11, false}, {10, false}, {20, true}} {
		synctest.Test(t, func(t *testing.T) {
			e := newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms")})
			res, took, err := readWithin(e, ms(c.deadline))
			assert.True(t, res.Trace.DigestMismatch, "deadline %v", c.deadline)
			assert.Equal(t, c.fired, res.Trace.ReconcileHedge.Fired, "deadline %v", c.deadline)
			if c.fired {
				require.NoError(t, err)
				assert.Equal(t, ms(11), res.Trace.ReconcileHedge.At)
				assert.Equal(t, ms(13), took)
				return
			}
			assert.Error(t, err)
			assert.Equal(t, ms(c.deadline), took)
			assert.Zero(t, e.c.Metrics().Total.ReconcileSpeculations)
			settle()
		})
	}
}

// The repair round's additional writes, due 5 ms after the repair writes
// went out at 2 ms, are not sent when the caller's deadline is at 7 ms or
// before; at 9 ms they are, and their acknowledgement completes the read
// at 8 ms.
func TestAdditionalWritesWithinTheCallersDeadline(t *testing.T) {
	for _, c := range []struct {
		deadline float64
		fired    bool
	}{{7, false}, {6, false}, {9, true}} {
		synctest.Test(t, func(t *testing.T) {
			e := newUnackedEnv(t, "5ms")
			res, took, err := readWithin(e, ms(c.deadline))
			assert.Equal(t, c.fired, res.Trace.AdditionalWrite.Fired, "deadline %v", c.deadline)
			if c.fired {
				require.NoError(t, err)
				assert.Equal(t, ms(7), res.Trace.AdditionalWrite.At)
				assert.Equal(t, ms(8), took)
				return
			}
			assert.Error(t, err)
			assert.Equal(t, ms(c.deadline), took)
			assert.Zero(t, e.c.Metrics().Total.AdditionalWrites)
			settle()
		})
	}
}

// An additional-write threshold at or beyond the read timeout sends no
// additional write (the repair would have timed out by then).
func TestAdditionalWritesNotPastTheReadTimeout(t *testing.T) {
	for _, p := range []string{"5000ms", "6000ms"} {
		synctest.Test(t, func(t *testing.T) {
			e := newUnackedEnv(t, p)
			res, took, err := e.read(consistency.Quorum)
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout, p)
			assert.False(t, res.Trace.AdditionalWrite.Fired, p)
			assert.Equal(t, coordinator.NotSuppressed, res.Trace.AdditionalWrite.Suppressed, p)
			assert.Equal(t, ms(5000), took, p)
			settle()
		})
	}
}

// Every phase's speculation draws on the one per-table budget: with a
// floor of exactly one action per window, a read whose first round hedged
// has nothing left for its reconcile round, which says so.
func TestPhasesShareTheBudget(t *testing.T) {
	for _, c := range []struct {
		name   string
		budget coordinator.HedgeBudget
	}{{"one action", coordinator.HedgeBudget{Percent: -1, MinPerSecond: 0.1}}, {"unlimited", coordinator.HedgeBudget{Unlimited: true}}} {
		synctest.Test(t, func(t *testing.T) {
			cl := fiveNodes(t)
			// D, the first round's hedge target, holds v1; B, C and E v2.
			require.NoError(t, cl.SeedOn(tbl, row(key, "v1", 20), D))
			require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), B, C, E))
			e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "10ms"), ReadTimeout: ms(100),
				Snitch: coordinator.SnitchConfig{Disabled: true}, HedgeBudget: c.budget})
			e.behave(t, A, constant(ms(500)))
			e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
				Pauses: []replicatest.Window{{Start: ms(1), End: ms(60_000)}}})

			res, _, err := e.read(consistency.Quorum)
			assert.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
			assert.Equal(t, D, res.Trace.Hedge.To)
			require.True(t, res.Trace.DigestMismatch, "%s", res.Trace)
			m := e.c.Metrics().Total
			if c.budget.Unlimited {
				require.NoError(t, err, "%s", res.Trace)
				assert.True(t, res.Trace.ReconcileHedge.Fired, "%s", res.Trace)
				assert.Equal(t, E, res.Trace.ReconcileHedge.To)
				assert.Equal(t, int64(1), m.ReconcileSpeculations)
			} else {
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout, "%s", res.Trace)
				assert.False(t, res.Trace.ReconcileHedge.Fired, "%s", res.Trace)
				assert.Equal(t, coordinator.SuppressedBudget, res.Trace.ReconcileHedge.Suppressed)
				assert.Equal(t, int64(1), m.SuppressedBudget)
				assert.Zero(t, m.ReconcileSpeculations)
			}
			assert.Equal(t, int64(1), m.SpeculativeRetries)
			settle()
		})
	}
}
