package main

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The recorder (readsim's columns) and nearestRank (the ideal's) must take
// a percentile at the same rank, or p50/ideal and p99/ideal compare
// different ranks. Values of at most 2,047 µs are stored exactly at 3
// significant digits, so the two must agree exactly, whatever the count
// and the order of recording.
func TestRecorderAndModelTakeTheSameRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 2000; n++ {
		sorted := make([]time.Duration, n)
		for i := range sorted {
			sorted[i] = time.Duration(i+1) * time.Microsecond
		}
		r := newRecorder()
		for _, i := range rng.Perm(n) {
			r.record(sorted[i])
		}
		require.Equal(t, int64(n), r.count())
		for _, q := range []float64{50, 99, 99.9} {
			want := float64(nearestRank(sorted, q/100)) / float64(time.Millisecond)
			if got := r.quantileMS(q); got != want {
				t.Fatalf("n %d, p%v: recorder %v ms, model %v ms", n, q, got, want)
			}
		}
		assert.Equal(t, float64(n)/1000, r.maxMS())
	}
}

// The ranks readsim's documentation states: of 1,000 latencies (-quick)
// the p99 has ten above it; of 4,000 forty; of 250 fan-out requests
// (-quick) two, and the p99.9 is the largest. rank finds the rank a
// percentile is taken at by recording k fast and n-k slow latencies.
func TestDocumentedRanks(t *testing.T) {
	rank := func(n int, q float64) int {
		lo, hi := 0, n // with k fast latencies, the percentile is slow iff k < rank
		for lo < hi {
			k := (lo + hi) / 2
			r := newRecorder()
			for i := range n {
				d := time.Millisecond
				if i >= k {
					d = time.Second
				}
				r.record(d)
			}
			if r.quantileMS(q) > 10 {
				lo = k + 1
			} else {
				hi = k
			}
		}
		return lo
	}
	above := func(n int, q float64) int { return n - rank(n, q) }
	assert.Equal(t, 10, above(1000, 99))
	assert.Equal(t, 40, above(4000, 99))
	assert.Equal(t, 2, above(250, 99))
	assert.Equal(t, 0, above(250, 99.9))
	assert.Equal(t, 1, above(1000, 99.9))
	assert.Equal(t, 2000, above(4000, 50))
}

// A failed read is recorded at the time it failed and counted as an
// error; while warming up (no recorder) nothing is recorded, though the
// error is counted (runJob resets the count after the warm-up).
func TestFailedReadsAreRecordedAndWarmUpIsNot(t *testing.T) {
	w := &workload{}
	w.book(3*time.Millisecond, errors.New("boom")) // warm-up: lat nil
	assert.Equal(t, int64(1), w.errors.Load())

	lat := newRecorder()
	w.lat = lat
	w.book(2*time.Millisecond, nil)
	w.book(900*time.Millisecond, errors.New("timeout"))
	assert.Equal(t, int64(2), lat.count(), "the failed read is among the latencies")
	// The max is the top of its HdrHistogram bucket (3 significant
	// digits), not the exact latency.
	assert.InDelta(t, 900.0, lat.maxMS(), 0.9)
	assert.Equal(t, int64(2), w.errors.Load())
}
