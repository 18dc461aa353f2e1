package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica/replicatest"
)

const ms1 = time.Millisecond

// quorum3 is RF 3 at QUORUM with an unlimited budget, as the tests below
// need unless they say otherwise.
func quorum3(service replicatest.Latency) model {
	return model{service: service, replicas: 3, blockFor: 2, timeout: time.Second, budget: budgetSpec{unlimited: true}}
}

// twoPoint answers in 1 ms, except that 1 % of requests pause 100 ms more:
// a QUORUM read's first round is 1 ms, or 101 ms when one of its two
// replicas paused (1.99 % of reads).
func twoPoint() model {
	m := quorum3(replicatest.Constant(ms1))
	m.pauseChance, m.pause = 0.01, replicatest.Constant(100*ms1)
	return m
}

func policy(t *testing.T, s string) latency.SpeculativeRetry {
	t.Helper()
	p, err := latency.ParseSpeculativeRetry(s)
	require.NoError(t, err)
	return p
}

var oneRunShape = runShape{warmUp: 100, measured: 1000}

// With a constant latency every answer is exact: no sampling noise.
func TestModelConstantLatencyIsExact(t *testing.T) {
	for _, tc := range []struct {
		policy           string
		hedges, requests float64 // per read
	}{
		{"NEVER", 0, 2},
		{"ALWAYS", 1, 3}, // the extra request goes out up front
		{"1ms", 1, 3},    // not done at 1 ms: a data request to the third replica
		{"2ms", 0, 2},    // done at 2 ms exactly: no hedge
		{"3ms", 0, 2},
		{"90p", 0, 2}, // the first round's 90th percentile is 2 ms
		{"MIN(99p,1ms)", 1, 3},
		{"MAX(99p,1ms)", 0, 2},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			m := quorum3(replicatest.Constant(2 * ms1))
			f := m.evaluate(policy(t, tc.policy), oneRunShape, 1)
			exact := [2]time.Duration{2 * ms1, 2 * ms1}
			assert.Equal(t, figures{p50: 2 * ms1, p99: 2 * ms1, p999: 2 * ms1, p50Range: exact, p99Range: exact, hedgesPerRead: tc.hedges, requestsPerRead: tc.requests}, f)
		})
	}
}

// The budget holds ALWAYS to its share of reads: one hedge per ten reads,
// counted from the start of the run.
func TestModelBudgetHoldsAlwaysToItsPercent(t *testing.T) {
	m := quorum3(replicatest.Constant(2 * ms1))
	m.budget = budgetSpec{percent: 0.1}
	f := m.evaluate(latency.Always(), runShape{measured: 1000}, 1)
	assert.Equal(t, 0.1, f.hedgesPerRead)
}

// The floor adds hedges whatever the reads: MinPerSecond × Window.
func TestModelBudgetFloor(t *testing.T) {
	m := quorum3(replicatest.Constant(2 * ms1))
	m.budget = budgetSpec{percent: 0, floor: 10}
	f := m.evaluate(latency.Always(), runShape{measured: 100}, 1)
	assert.Equal(t, 0.1, f.hedgesPerRead)
}

// A known two-point distribution gives known percentiles: 1.99 % of reads
// take 101 ms without hedging, so p99 is 101 ms and p50 1 ms. A hedge at
// 10 ms rescues every read but those that pause twice (0.03 %): p99 falls
// to 11 ms. 99p's threshold is 101 ms, where no read is still waiting.
func TestModelTwoPointPercentiles(t *testing.T) {
	for _, tc := range []struct {
		policy        string
		p50, p99      time.Duration
		hedgedAtLeast float64
	}{
		{"NEVER", ms1, 101 * ms1, 0},
		{"10ms", ms1, 11 * ms1, 0.0199 - 0.002},
		{"99p", ms1, 101 * ms1, 0},
		{"MIN(99p,10ms)", ms1, 11 * ms1, 0.0199 - 0.002},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			m := twoPoint()
			f := m.evaluate(policy(t, tc.policy), oneRunShape, 1)
			assert.Equal(t, tc.p50, f.p50)
			assert.Equal(t, tc.p99, f.p99)
			assert.GreaterOrEqual(t, f.hedgesPerRead, tc.hedgedAtLeast)
			assert.Less(t, f.hedgesPerRead, tc.hedgedAtLeast+0.004)
		})
	}
}

// A percentile policy hedges its share of reads: its threshold is the
// percentile of the model's own first round.
func TestModelPercentileHedgesItsShare(t *testing.T) {
	m := quorum3(replicatest.LogNormal(2*ms1, 0.4))
	for _, tc := range []struct {
		policy string
		share  float64
	}{{"90p", 0.10}, {"95p", 0.05}, {"99p", 0.01}} {
		f := m.evaluate(policy(t, tc.policy), oneRunShape, 1)
		assert.InDelta(t, tc.share, f.hedgesPerRead, 0.004, tc.policy)
	}
}

// A fan-out request takes as long as its slowest read: with 100 reads of
// the two-point model, 86.6 % of requests meet a pause without hedging,
// and 3 % meet a read that a hedge at 10 ms cannot rescue.
func TestModelFanoutIsTheSlowestRead(t *testing.T) {
	m := twoPoint()
	m.fanout = 100
	never := m.evaluate(latency.Never(), runShape{measured: 100}, 1)
	assert.Equal(t, 101*ms1, never.p50)
	hedged := m.evaluate(policy(t, "10ms"), runShape{measured: 100}, 1)
	assert.Equal(t, 11*ms1, hedged.p50)
	assert.Equal(t, 101*ms1, hedged.p99)
}

// One stale key on replica 0: a read that contacts replica 0 (two reads in
// three) mismatches, reads the data of the replica that sent a digest and
// waits for the repair, 3 ms in all; the repair fixes the key, so a read
// after a repair takes 1 ms.
func TestModelStaleReplicaMismatchesOnceAndRepairs(t *testing.T) {
	m := quorum3(replicatest.Constant(ms1))
	m.stale = []bool{true}
	first := m.evaluate(latency.Never(), runShape{measured: 1}, 1)
	assert.Equal(t, 3*ms1, first.p50)
	assert.InDelta(t, 2+2.0/3, first.requestsPerRead, 0.01, "a reconciling data read in two reads of three")

	// After one read the key is still stale with chance 1/3, and the next
	// read meets replica 0 with chance 2/3: 2/9 of second reads take 3 ms.
	second := m.evaluate(latency.Never(), runShape{warmUp: 1, measured: 1}, 1)
	assert.Equal(t, ms1, second.p50)
	assert.Equal(t, 3*ms1, second.p99)
	assert.InDelta(t, 2+2.0/9, second.requestsPerRead, 0.01)
	assert.True(t, m.stale[0], "evaluating changes nothing in the model")
}

// The model reads the same stale keys as the cluster readsim seeds.
func TestModelOfStaleReplicaReadsTheSeededKeys(t *testing.T) {
	s, err := scenarioNamed("stale-replica")
	require.NoError(t, err)
	m, ok := modelOf(s, 7)
	require.True(t, ok)
	assert.Equal(t, staleKeySet(keyCount, s.staleKeys, 7), m.stale)
	stale := 0
	for _, k := range m.stale {
		if k {
			stale++
		}
	}
	assert.InDelta(t, s.staleKeys*keyCount, stale, 100)
}

func TestScenariosWithoutModel(t *testing.T) {
	for _, s := range scenarios {
		_, ok := modelOf(s, 1)
		want := s.name == "healthy" || s.name == "gc-pauses" || s.name == "stale-replica" || s.name == "fanout"
		assert.Equal(t, want, ok, s.name)
	}
}

// Reads end at the timeout, failed.
func TestModelTimeout(t *testing.T) {
	m := quorum3(replicatest.Constant(2 * time.Second))
	f := m.evaluate(latency.Never(), runShape{measured: 10}, 1)
	assert.Equal(t, time.Second, f.p99)
}

// nearestRank rounds its rank as HdrHistogram does: a p99.9 of fewer than
// 500 latencies is their largest.
func TestNearestRank(t *testing.T) {
	ramp := func(n int) []time.Duration {
		s := make([]time.Duration, n)
		for i := range s {
			s[i] = time.Duration(i + 1)
		}
		return s
	}
	for _, tc := range []struct {
		n    int
		q    float64
		want time.Duration
	}{
		{1, 0.5, 1}, {4, 0.5, 2}, {100, 0.99, 99}, {400, 0.999, 400}, {499, 0.999, 499},
		{1000, 0.999, 999}, {1000, 0.5, 500}, {10, 0.01, 1},
	} {
		assert.Equal(t, tc.want, nearestRank(ramp(tc.n), tc.q), "n %d q %v", tc.n, tc.q)
	}
	assert.Zero(t, nearestRank(nil, 0.5))
}

// A percentile policy whose threshold moved during the run is modelled
// read by read, as the run's reads hedged: with 90 % of reads at 10 ms and
// the last 10 % at 200 ms, where no read is still waiting, a tenth of the
// paused reads take 101 ms (0.2 % of reads: the p99.9), where a single
// threshold (10 ms, their median) would have rescued them all. However
// many thresholds the run recorded, each stands for its share of reads.
func TestModelFollowsTheThresholdsTheRunRanWith(t *testing.T) {
	for _, recorded := range []int{10, 1000, 4000} {
		thresholds := make([]time.Duration, recorded)
		for i := range thresholds {
			thresholds[i] = 10 * ms1
			if i >= recorded*9/10 {
				thresholds[i] = 200 * ms1
			}
		}
		m := twoPoint()
		f := m.evaluate(policy(t, "99p"), runShape{warmUp: 100, measured: 1000, thresholds: thresholds}, 1)
		assert.Equal(t, 11*ms1, f.p99, "%d thresholds", recorded)
		assert.Equal(t, 101*ms1, f.p999, "%d thresholds", recorded)
		assert.InDelta(t, 0.9*0.0199, f.hedgesPerRead, 0.002, "%d thresholds", recorded)
	}
}
