package main

import (
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

// The range's ends are the model's latencies two standard deviations of a
// sample quantile's rank either side: of 1,000 evenly spread latencies,
// q 0.5 ± 0.0316 over 1,000 reads, and ± 0.1 over 100.
func TestSampleRangeIsTwoStandardDeviationsOfRank(t *testing.T) {
	sorted := make([]time.Duration, 1000)
	for i := range sorted {
		sorted[i] = time.Duration(i+1) * time.Millisecond
	}
	assert.Equal(t, [2]time.Duration{468 * time.Millisecond, 532 * time.Millisecond}, sampleRange(sorted, 0.5, 1000))
	assert.Equal(t, [2]time.Duration{400 * time.Millisecond, 600 * time.Millisecond}, sampleRange(sorted, 0.5, 100))
	assert.Equal(t, [2]time.Duration{time.Millisecond, 1000 * time.Millisecond}, sampleRange(sorted, 0.5, 1), "clamped to the model's range")
}
