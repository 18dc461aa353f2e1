package main

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A QUORUM read under 5ms over RF 3, order A (data), B (digest), C: A's
// data request is slow (20 ms), so at 5 ms the read hedges a data request
// to C, which answers at 7 ms. B, the stale replica, answered its digest at
// 2 ms: the first round completes at 7 ms with a mismatch, while A's
// first-round data request is still out. The reconcile round asks B for
// data (50 ms) and A again (30 ms). The coordinator's reconcile round has
// a channel of its own, so A's first-round answer at 20 ms does not count
// in it: the read ends when A's new data read answers, at 37 ms. The model
// counts A's first-round answer as a version (min(draw, q.at-mismatch)) and
// ends at 20 ms.
func TestModelCountsNoFirstRoundAnswerInTheReconcileRound(t *testing.T) {
	var real time.Duration
	var trace coordinator.Trace
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3), Seed: 1,
		})
		require.NoError(t, err)
		rs := cl.Replicas()
		ids := []string{rs[0].Endpoint().ID, rs[1].Endpoint().ID, rs[2].Endpoint().ID}
		require.NoError(t, cl.Pin(table, "k", ids...))
		require.NoError(t, cl.Seed(table, userRow("k", "current", 2_000_000)))
		require.NoError(t, cl.SeedOn(table, userRow("k", "older", 1_000_000), ids[1]))
		require.NoError(t, rs[0].SetLatency(&scripted{at: map[int64]time.Duration{1: 20 * ms1, 2: 30 * ms1}, def: 2 * ms1}))
		require.NoError(t, rs[1].SetLatency(&scripted{at: map[int64]time.Duration{1: 2 * ms1, 2: 50 * ms1}, def: 2 * ms1}))
		require.NoError(t, rs[2].SetLatency(replicatest.Constant(2*ms1)))
		c, err := coordinator.New(coordinator.Config{
			Locator: cl, Liveness: cl, LocalDatacenter: "dc1", ReadTimeout: time.Second,
			Snitch:       coordinator.SnitchConfig{Disabled: true},
			DefaultTable: coordinator.TableOptions{SpeculativeRetry: policy(t, "5ms")},
			HedgeBudget:  coordinator.HedgeBudget{Unlimited: true},
		})
		require.NoError(t, err)
		defer c.Close()
		start := time.Now()
		res, err := c.Read(context.Background(), coordinator.Request{Table: table, Key: "k", Level: consistency.Quorum})
		real = time.Since(start)
		require.NoError(t, err)
		trace = res.Trace
	})
	require.True(t, trace.Hedge.Fired)
	require.True(t, trace.DigestMismatch)
	t.Logf("coordinator with no overhead: %v", real)

	// The model: replica 0 is the stale one, so the order must be 1, 0, 2
	// (data to 1, digest to the stale 0, hedge to 2). Draws: 1 data to
	// replica 1 (20 ms), 2 digest to 0 (2 ms), 3 the hedge (2 ms), 4 the
	// stale replica's data read (50 ms), 5 replica 1's new data read (30 ms).
	m := quorum3(&scripted{at: map[int64]time.Duration{1: 20 * ms1, 2: 2 * ms1, 3: 2 * ms1, 4: 50 * ms1, 5: 30 * ms1}, def: 2 * ms1})
	m.stale = []bool{true}
	seed := uint64(0)
	for !slices.Equal(rand.New(rand.NewPCG(seed, 0)).Perm(3), []int{1, 0, 2}) {
		seed++
	}
	res := m.newRun(rand.New(rand.NewPCG(seed, 0))).read(hedgePlan{speculate: true, after: 5 * ms1})
	assert.Equal(t, real, res.latency, "the ideal of a read the coordinator completes in %v", real)
}

// Under ALWAYS A and B are asked for data and C for a digest; A (replica
// 0, stale) and B answer first: the reconcile round has its two versions
// in hand and the coordinator sends no request
// (coordinator.TestReconcileWithVersionsInHandAsksNoStraggler), and the
// model counts none (it counted a read of the straggler C: found by review).
func TestModelSendsNoReconcileReadWithTheVersionsInHand(t *testing.T) {
	m := quorum3(&scripted{at: map[int64]time.Duration{3: 50 * ms1}, def: ms1})
	m.stale = []bool{true}
	seed := uint64(0)
	for !slices.Equal(rand.New(rand.NewPCG(seed, 0)).Perm(3), []int{0, 1, 2}) {
		seed++
	}
	res := m.newRun(rand.New(rand.NewPCG(seed, 0))).read(hedgePlan{speculate: true, always: true})
	assert.Equal(t, 2*ms1, res.latency)
	assert.Equal(t, 3, res.requests, "data and digest requests: the first round's three, none in the reconcile round")
}
