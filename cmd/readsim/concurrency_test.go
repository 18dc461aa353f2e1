package main

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// -concurrency takes any n from 2 up, and a closed loop of total reads has
// no use for more than total readers: the others find no read left. It
// started all n, each with a random source of its own, in every chunk of
// the warm-up and again for the measured run, so that -concurrency
// 100000000000 (a typo's extra zeros) spent hours creating goroutines that
// read nothing before the first row came (found by review).
func TestClosedLoopStartsNoMoreReadersThanReads(t *testing.T) {
	w := &workload{o: options{seed: 1}}
	var reads atomic.Int64
	allocs := testing.AllocsPerRun(1, func() {
		w.closedLoop(100_000, 4, func(*rand.Rand) { reads.Add(1) })
	})
	if reads.Load() != 8 {
		t.Fatalf("%d reads in two loops of 4", reads.Load())
	}
	if allocs > 1000 {
		t.Fatalf("a closed loop of 4 reads under -concurrency 100000 made %.0f allocations: it started a reader, and its random source, for each of the 100,000", allocs)
	}
}
