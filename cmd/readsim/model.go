package main

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// model is a scenario without a machine: replicas that answer after a
// service time drawn from the scenario's distributions, a coordinator that
// costs nothing, timers that fire exactly on time. It follows the read
// path's rules (QUORUM, one data request, one hedge within the budget,
// digest mismatch, reconciliation with its stragglers and its hedge, and
// blocking read repair), so that its percentiles are what the read path
// would give with zero coordinator and runtime overhead: the ideal
// readsim's figures are compared with. It leaves out the repair's
// additional writes, which wait for a repair write slower than the 99th
// percentile of them.
//
// A model is a plain value; evaluate it with evaluate.
type model struct {
	service     replicatest.Latency
	pauseChance float64
	pause       replicatest.Latency // required when pauseChance > 0
	replicas    int                 // the replication factor
	blockFor    int
	timeout     time.Duration // a read ends here, failed
	// budget caps hedges: Unlimited, or Percent of reads plus MinPerSecond
	// times Window. A run is shorter than the window, so the budget counts
	// every read since the run began.
	budget budgetSpec
	// stale marks the keys replica 0 holds an older version of; nil when
	// all replicas agree. Reads pick keys uniformly.
	stale []bool
	// fanout is the number of reads per request; 0 for single reads.
	fanout int
}

// budgetSpec is the hedge budget a model follows.
type budgetSpec struct {
	unlimited bool
	percent   float64 // of reads
	floor     float64 // hedges allowed whatever the reads
}

// draw is one replica request's service time: the scenario's latency plus,
// by chance, a pause, drawn in the order a fake replica draws them.
func (m *model) draw(rng *rand.Rand) time.Duration {
	d := max(0, m.service.Sample(rng))
	if m.pauseChance > 0 && rng.Float64() < m.pauseChance {
		d += max(0, m.pause.Sample(rng))
	}
	return d
}

// order is the replicas in the order a read contacts them. The
// coordinator's snitch spreads reads over replicas of equal standing by
// their outstanding requests, so each read sees them in a random order.
func (m *model) order(rng *rand.Rand) []int {
	return rng.Perm(m.replicas)
}

// request is one replica request of a simulated read.
type request struct {
	at      time.Duration // when it answers, from the read's start
	replica int
	data    bool
}

// completion returns when blockFor answers, one of them data, are in, and
// how many of the requests (in order of arrival) it took; ok is false if
// they never are. It sorts reqs by arrival.
func completion(reqs []request, blockFor int) (at time.Duration, used int, ok bool) {
	slices.SortStableFunc(reqs, func(a, b request) int { return cmp.Compare(a.at, b.at) })
	data := false
	for i, r := range reqs {
		data = data || r.data
		if i+1 >= blockFor && data {
			return r.at, i + 1, true
		}
	}
	return 0, 0, false
}

// dataBy reports whether a data answer is in by t.
func dataBy(reqs []request, t time.Duration) bool {
	for _, r := range reqs {
		if r.data && r.at <= t {
			return true
		}
	}
	return false
}

// budgetOf is the budget a model follows for the coordinator's h, whose
// fields are all set.
func budgetOf(h coordinator.HedgeBudget) budgetSpec {
	return budgetSpec{unlimited: h.Unlimited, percent: h.Percent, floor: max(h.MinPerSecond, 0) * h.Window.Seconds()}
}
