package main

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// scripted answers its n-th draw (from 1) with at[n], or with def.
type scripted struct {
	n   atomic.Int64
	at  map[int64]time.Duration
	def time.Duration
}

func (s *scripted) Sample(*rand.Rand) time.Duration {
	if d, ok := s.at[s.n.Add(1)]; ok {
		return d
	}
	return s.def
}

// realStaleRead reads, with no overhead at all (a synctest bubble), one
// key at QUORUM over RF 3 under policy 5ms: the first replica, the data
// replica, holds an older version; the others answer in the latencies
// given. It returns how long the read took and its trace.
func realStaleRead(t *testing.T, digest, third replicatest.Latency) (took time.Duration, trace coordinator.Trace) {
	return realReadOf(t, 0, replicatest.Constant(2*ms1), digest, third)
}

// realReadOf is realStaleRead with the stale replica and every replica's
// latency given, in the locator's order.
func realReadOf(t *testing.T, stale int, lats ...replicatest.Latency) (took time.Duration, trace coordinator.Trace) {
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
		require.NoError(t, cl.SeedOn(table, userRow("k", "older", 1_000_000), ids[stale]))
		for i, l := range lats {
			require.NoError(t, rs[i].SetLatency(l))
		}
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
		took = time.Since(start)
		require.NoError(t, err)
		require.True(t, res.Trace.DigestMismatch)
		trace = res.Trace
	})
	return took, trace
}

// modelStaleRead is the same read in the model, whose draws, in the order
// the model makes them, are script's: the replicas in the order 0, 1, 2,
// replica 0 stale.
func modelStaleRead(script replicatest.Latency) readResult {
	return modelReadIn(script, hedgePlan{speculate: true, after: 5 * ms1}, 0, 1, 2)
}

// modelReadIn is modelStaleRead under h, with the replicas in order.
func modelReadIn(script replicatest.Latency, h hedgePlan, order ...int) readResult {
	m := quorum3(script)
	m.stale = []bool{true}
	seed := uint64(0)
	for !slices.Equal(rand.New(rand.NewPCG(seed, 0)).Perm(3), order) {
		seed++
	}
	return m.newRun(rand.New(rand.NewPCG(seed, 0))).read(h)
}

// The ideal follows the read path's reconciliation (README, "The ideal
// beside the real"), whose round speculates too: if the versions are not
// in by the threshold after the mismatch, one data request goes to the
// replica not contacted at all. Here the first round ends at 3 ms, the
// digest replica's data read takes 50 ms, the hedge at 8 ms to the third
// replica answers at 10 ms and the stale replica's repair at 12 ms. The
// model waited for the slow read (55 ms).
func TestIdealFollowsTheReconcileRoundsSpeculation(t *testing.T) {
	real, trace := realStaleRead(t,
		&scripted{at: map[int64]time.Duration{1: 3 * ms1, 2: 50 * ms1}, def: 2 * ms1}, replicatest.Constant(2*ms1))
	require.True(t, trace.ReconcileHedge.Fired, "the coordinator hedges the reconcile round")
	assert.Equal(t, 12*ms1, real, "the coordinator with no overhead")

	// Draws 1 and 2 the first round (data to the stale replica, digest),
	// 3 the digest replica's data read, 4 the hedge, 5 the repair.
	res := modelStaleRead(&scripted{at: map[int64]time.Duration{2: 3 * ms1, 3: 50 * ms1}, def: 2 * ms1})
	assert.Equal(t, real, res.latency, "the ideal of a read the coordinator completes in %v", real)
	assert.Equal(t, 1, res.hedges, "the reconcile round's")
	assert.Equal(t, 4, res.requests, "data and digest requests")
}

// The reconcile round asks for data a replica whose first request is still
// out, as the coordinator asks its stragglers. Here the first round hedges
// at 5 ms to the third replica (a digest, answering at 15 ms) and ends at
// 8 ms; the digest replica's data read takes 50 ms, the third replica's 2
// ms, and the stale replica's repair ends at 12 ms.
func TestIdealAsksTheFirstRoundsStragglersForData(t *testing.T) {
	real, trace := realStaleRead(t,
		&scripted{at: map[int64]time.Duration{1: 8 * ms1, 2: 50 * ms1}, def: 2 * ms1},
		&scripted{at: map[int64]time.Duration{1: 10 * ms1}, def: 2 * ms1})
	require.True(t, trace.Hedge.Fired, "the first round hedges")
	require.False(t, trace.ReconcileHedge.Fired, "every replica was contacted")
	assert.Equal(t, 12*ms1, real, "the coordinator with no overhead")

	// Draws 1 and 2 the first round, 3 its hedge, 4 the digest replica's
	// data read, 5 the third replica's, 6 the repair.
	res := modelStaleRead(&scripted{at: map[int64]time.Duration{2: 8 * ms1, 3: 10 * ms1, 4: 50 * ms1}, def: 2 * ms1})
	assert.Equal(t, real, res.latency, "the ideal of a read the coordinator completes in %v", real)
	assert.Equal(t, 1, res.hedges, "the first round's")
	assert.Equal(t, 5, res.requests, "data and digest requests")
}
