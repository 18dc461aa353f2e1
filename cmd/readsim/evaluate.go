package main

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/readpath/readpath/latency"
)

// runShape is the shape of one measured run, which the model repeats: a
// warm-up of warmUp reads, then measured latencies (reads, or requests of
// model.fanout reads). thresholds are the speculative-retry thresholds the
// measured reads ran with, in the order they ended; empty when not known.
type runShape struct {
	warmUp     int
	measured   int
	thresholds []time.Duration
}

// figures are a model's results under one policy.
type figures struct {
	p50, p99, p999 time.Duration
	// p50Range and p99Range are where the p50 and p99 of a sample of the
	// run's size, drawn from the model, fall 19 times in 20 (see
	// sampleRange).
	p50Range, p99Range [2]time.Duration
	// hedgesPerRead and requestsPerRead count speculative requests, and
	// data and digest requests in all, per partition read.
	hedgesPerRead, requestsPerRead float64
}

// A model is run until it has idealLatencies latencies, enough for a
// p99.9 resting on a hundred above it, or has simulated idealReads reads,
// which bounds the fan-out scenario's time (20,000 requests of 100 reads).
const (
	idealLatencies   = 100_000
	idealReads       = 2_000_000
	firstRoundDraws  = 200_000
	firstRoundStream = 1 << 40
)

// evaluate runs the model under policy p, seeded by seed: the same run
// shape again and again until it has enough measured latencies.
// Every policy of a scenario draws from the same random stream, so that
// their differences are the policies', not the draws'.
func (m *model) evaluate(p latency.SpeculativeRetry, shape runShape, seed uint64) figures {
	lat, t := m.latencies(p, shape, seed)
	return figures{
		p50: nearestRank(lat, 0.5), p99: nearestRank(lat, 0.99), p999: nearestRank(lat, 0.999),
		p50Range:        sampleRange(lat, 0.5, shape.measured),
		p99Range:        sampleRange(lat, 0.99, shape.measured),
		hedgesPerRead:   float64(t.hedges) / float64(t.reads),
		requestsPerRead: float64(t.requests) / float64(t.reads),
	}
}

// latencies are evaluate's measured latencies, sorted, and what their
// reads sent.
func (m *model) latencies(p latency.SpeculativeRetry, shape runShape, seed uint64) ([]time.Duration, tally) {
	s := m.schedule(p, shape, seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	var lat []time.Duration
	var sum tally
	for len(lat) < idealLatencies && sum.reads < idealReads {
		run := m.newRun(rng)
		for range shape.warmUp {
			run.read(s.warmUp)
		}
		for i := range shape.measured {
			d, t := run.request(s.at(i))
			lat = append(lat, d)
			sum = tally{sum.reads + t.reads, sum.hedges + t.hedges, sum.requests + t.requests}
		}
	}
	slices.Sort(lat)
	return lat, sum
}

// tally counts what one request's reads sent.
type tally struct{ reads, hedges, requests int }

// request simulates one measured latency: a read, or under fan-out the
// slowest of m.fanout reads sent at once.
func (r *modelRun) request(h hedgePlan) (time.Duration, tally) {
	var longest time.Duration
	var t tally
	for range max(1, r.m.fanout) {
		res := r.read(h)
		longest = max(longest, res.latency)
		t.reads++
		t.requests += res.requests
		t.hedges += res.hedges
	}
	return longest, t
}

// hedgeSchedule is when the model's reads hedge: the warm-up's reads at
// warmUp, measured request i at measured[i], or at warmUp when measured is
// nil.
type hedgeSchedule struct {
	warmUp   hedgePlan
	measured []hedgePlan
}

func (s hedgeSchedule) at(i int) hedgePlan {
	if s.measured == nil {
		return s.warmUp
	}
	return s.measured[i]
}

// schedule turns policy p into when the model's reads hedge. A policy
// that follows latency hedges as the run's reads did, when their
// thresholds are known: measured request i at the threshold of the run's
// read at the same place in its order, the warm-up at the first. The
// coordinator's threshold in a run of a few thousand reads depends on the
// draws and on the order concurrent reads end in, which a bubble does not
// fix: a gc-pauses 99p threshold sits at the edge of the pauses, near 10
// ms in one run of a seed and 60 ms in another (the settled 99th
// percentile is 76 ms), and in one run went 61, 9, 61, then 14 ms from one
// refresh to the next, its window holding more reads each time: no single
// value stands for such a run. Without thresholds a percentile is taken
// of the model's own first-round latency without hedging, where the
// threshold settles in a long run: it records a hedged read's first round
// at more than the threshold, so hedging leaves the share of reads below
// the threshold unchanged.
func (m *model) schedule(p latency.SpeculativeRetry, shape runShape, seed uint64) hedgeSchedule {
	thr := shape.thresholds
	if !followsLatency(p) || len(thr) == 0 || shape.measured == 0 {
		return hedgeSchedule{warmUp: m.plan(p, 0, seed)}
	}
	s := hedgeSchedule{warmUp: m.plan(p, thr[0], seed), measured: make([]hedgePlan, shape.measured)}
	for i := range s.measured {
		s.measured[i] = m.plan(p, thr[i*len(thr)/shape.measured], seed)
	}
	return s
}

func followsLatency(p latency.SpeculativeRetry) bool {
	k := p.Kind()
	return k == latency.KindPercentile || k == latency.KindMin || k == latency.KindMax
}

// plan turns policy p into when a read hedges: a policy that follows
// latency at learned when it is more than 0, otherwise at its percentile
// of the model's first round (see schedule).
func (m *model) plan(p latency.SpeculativeRetry, learned time.Duration, seed uint64) hedgePlan {
	var after time.Duration
	switch k := p.Kind(); {
	case k == latency.KindNever:
		return hedgePlan{}
	case k == latency.KindAlways:
		return hedgePlan{speculate: true, always: true}
	case k == latency.KindFixed:
		after = p.FixedDelay()
	case learned > 0: // a percentile, MIN or MAX, at the run's threshold
		after = learned
	case k == latency.KindPercentile:
		after = m.firstRoundQuantile(p.Percentile()/100, seed)
	case k == latency.KindMin:
		after = min(m.firstRoundQuantile(p.Percentile()/100, seed), p.FixedDelay())
	case k == latency.KindMax:
		after = max(m.firstRoundQuantile(p.Percentile()/100, seed), p.FixedDelay())
	}
	// As the coordinator: no hedge at a threshold the timeout ends first.
	return hedgePlan{speculate: after < m.timeout, after: after}
}

// firstRoundQuantile is the q-th quantile of the first round's latency
// without hedging.
func (m *model) firstRoundQuantile(q float64, seed uint64) time.Duration {
	run := m.newRun(rand.New(rand.NewPCG(seed, firstRoundStream)))
	run.budget.spec.unlimited = true
	lat := make([]time.Duration, firstRoundDraws)
	for i := range lat {
		lat[i] = run.read(hedgePlan{}).firstRound
	}
	slices.Sort(lat)
	return nearestRank(lat, q)
}

// nearestRank returns the q-th quantile (0 < q <= 1) of sorted, rounding
// its rank as HdrHistogram's ValueAtQuantile does, so that the model's
// percentiles and readsim's are taken alike.
func nearestRank(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(q*float64(len(sorted)) + 0.5)
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// sampleRange is where the q-th quantile of n latencies drawn from sorted
// falls 19 times in 20: the sample's quantile is its k-th least latency (k
// the rank nearestRank takes), which lies at or below the model's u-th
// quantile exactly when at least k of the n fall there, a binomial
// chance; the ends are the model's latencies at the u where that chance is
// 2.5 % and 97.5 %. Two standard deviations of the rank either side, the
// normal approximation, covered 93 % at the p99 of 1,000 reads and 92.6 %
// of 250 (found by a review). Where the model's latencies have a gap at q
// (gc-pauses' healthy reads end near 15 ms and its paused ones start at
// 50), its ends are far apart, and a run with no overhead at all can have
// its percentile on either side of the gap.
func sampleRange(sorted []time.Duration, q float64, n int) [2]time.Duration {
	n = max(n, 1)
	k := min(max(int(q*float64(n)+0.5), 1), n)
	return [2]time.Duration{
		nearestRank(sorted, binomialQuantile(n, k, 0.025)),
		nearestRank(sorted, binomialQuantile(n, k, 0.975)),
	}
}
