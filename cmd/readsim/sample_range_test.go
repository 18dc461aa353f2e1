package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A model whose reads end at 10 ms but for 1.1 % at 60 ms has a gap at its
// p99: a sample of 1,000 reads puts its p99 on either side, 19 times in 20,
// and a sample of a million on the slow side alone. Its p50 has no gap.
func TestSampleRangeSpansAGapForSmallSamples(t *testing.T) {
	sorted := make([]time.Duration, 100_000)
	for i := range sorted {
		sorted[i] = 10 * time.Millisecond
		if i >= 98_900 {
			sorted[i] = 60 * time.Millisecond
		}
	}
	assert.Equal(t, [2]time.Duration{10 * time.Millisecond, 60 * time.Millisecond}, sampleRange(sorted, 0.99, 1000))
	assert.Equal(t, [2]time.Duration{60 * time.Millisecond, 60 * time.Millisecond}, sampleRange(sorted, 0.99, 1_000_000))
	assert.Equal(t, [2]time.Duration{10 * time.Millisecond, 10 * time.Millisecond}, sampleRange(sorted, 0.5, 1000))
}

// The range's ends are the model's latencies at the binomial interval of
// the sample quantile's rank: of 1,000 evenly spread latencies, about q
// 0.5 ± 0.031 over 1,000 reads, and 0.398–0.592 over 100 (the normal
// approximation's ± 0.1 was symmetric); one read lies anywhere between
// the model's 2.5th and 97.5th percentiles.
func TestSampleRangeIsTheBinomialInterval(t *testing.T) {
	sorted := evenly(1000, time.Millisecond)
	assert.Equal(t, [2]time.Duration{469 * time.Millisecond, 530 * time.Millisecond}, sampleRange(sorted, 0.5, 1000))
	assert.Equal(t, [2]time.Duration{398 * time.Millisecond, 592 * time.Millisecond}, sampleRange(sorted, 0.5, 100))
	assert.Equal(t, [2]time.Duration{25 * time.Millisecond, 975 * time.Millisecond}, sampleRange(sorted, 0.5, 1))
}

// 19 times in 20, as the table's footer says, a sample of the row's size,
// its percentile taken as readsim takes it, falls in the range: drawn from
// a model with no gap, at the p99 of 250 reads (fanout under -quick) and
// 1,000 (-quick) and the p50. Two standard deviations of the rank covered
// 92.6 % and 93.2 % at the p99 (found by a review); seeded, so the same
// draws every run.
func TestSampleRangeCoversNineteenInTwenty(t *testing.T) {
	model := evenly(100_000, time.Microsecond)
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 4000
	for _, c := range []struct {
		q float64
		n int
	}{{0.99, 250}, {0.99, 1000}, {0.5, 1000}} {
		r := sampleRange(model, c.q, c.n)
		in := 0
		sample := make([]time.Duration, c.n)
		for range trials {
			for i := range sample {
				sample[i] = model[rng.IntN(len(model))]
			}
			slices.Sort(sample)
			if v := nearestRank(sample, c.q); v >= r[0] && v <= r[1] {
				in++
			}
		}
		assert.GreaterOrEqual(t, float64(in)/trials, 0.94, "q %v of %d reads in %v", c.q, c.n, r)
	}
}

// binomialAtLeast is the binomial upper tail: exact for small n, and for a
// large one summing the terms near the mode alone.
func TestBinomialAtLeast(t *testing.T) {
	assert.InDelta(t, 0.5, binomialAtLeast(1, 1, 0.5), 1e-12)
	assert.InDelta(t, 0.75, binomialAtLeast(2, 1, 0.5), 1e-12)
	assert.InDelta(t, 0.25, binomialAtLeast(2, 2, 0.5), 1e-12)
	assert.InDelta(t, 1-0.99*0.99*0.99, binomialAtLeast(3, 1, 0.01), 1e-12)
	assert.InDelta(t, 0.5, binomialAtLeast(1_000_001, 500_001, 0.5), 1e-3)
	assert.Equal(t, 1.0, binomialAtLeast(10, 0, 0.3))
	assert.Equal(t, 0.0, binomialAtLeast(10, 11, 0.3))
}

// evenly returns n latencies step apart, from step on: a model with no gap.
func evenly(n int, step time.Duration) []time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = time.Duration(i+1) * step
	}
	return ds
}
