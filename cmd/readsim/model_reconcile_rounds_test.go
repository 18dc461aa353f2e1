package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica/replicatest"
)

// A QUORUM read under 5ms over RF 3, order A (data), B (digest), C: A's
// data request is slow (20 ms), so at 5 ms the read hedges a data request
// to C, which answers at 7 ms. B, the stale replica, answered its digest at
// 2 ms: the first round completes at 7 ms with a mismatch, while A's
// first-round data request is still out. The reconcile round asks B for
// data (50 ms) and takes A's data request over rather than ask A again
// (coordinator.TestNoReplicaGetsTwoDataRequestsAtOnce): the read ends
// when A's first-round answer comes, at 20 ms, and so must the ideal. (It
// once asked A again, and ended at 37 ms; the ideal, which counted A's
// first-round answer then, was made to wait too.)
func TestModelTakesAFirstRoundDataRequestOverInTheReconcileRound(t *testing.T) {
	real, trace := realReadOf(t, 1,
		&scripted{at: map[int64]time.Duration{1: 20 * ms1, 2: 30 * ms1}, def: 2 * ms1},
		&scripted{at: map[int64]time.Duration{1: 2 * ms1, 2: 50 * ms1}, def: 2 * ms1},
		replicatest.Constant(2*ms1))
	require.True(t, trace.Hedge.Fired)
	assert.Equal(t, 20*ms1, real, "the coordinator with no overhead")

	// The model's replica 0 is the stale one, so its order is 1, 0, 2 (data
	// to 1, digest to the stale 0, hedge to 2). Draws: 1 the data request
	// to replica 1 (20 ms), 2 the digest (2 ms), 3 the hedge (2 ms), 4 the
	// stale replica's data read (50 ms).
	script := &scripted{at: map[int64]time.Duration{1: 20 * ms1, 2: 2 * ms1, 3: 2 * ms1, 4: 50 * ms1}, def: 2 * ms1}
	res := modelReadIn(script, hedgePlan{speculate: true, after: 5 * ms1}, 1, 0, 2)
	assert.Equal(t, real, res.latency, "the ideal of a read the coordinator completes in %v", real)
	assert.Equal(t, 4, res.requests, "the first round's three and the stale replica's data read")
}

// Under ALWAYS A and B are asked for data and C for a digest; A (replica
// 0, stale) and B answer first: the reconcile round has its two versions
// in hand and the coordinator sends no request
// (coordinator.TestReconcileWithVersionsInHandAsksNoStraggler), and the
// model counts none (it counted a read of the straggler C: found by review).
func TestModelSendsNoReconcileReadWithTheVersionsInHand(t *testing.T) {
	script := &scripted{at: map[int64]time.Duration{3: 50 * ms1}, def: ms1}
	res := modelReadIn(script, hedgePlan{speculate: true, always: true}, 0, 1, 2)
	assert.Equal(t, 2*ms1, res.latency)
	assert.Equal(t, 3, res.requests, "data and digest requests: the first round's three, none in the reconcile round")
}
