package main

import (
	"math"
	"runtime/metrics"
)

// histDelta returns the counts now has beyond before: what was observed
// between the two reads. Either may be nil (the metric is missing): then
// it returns nil.
func histDelta(now, before *metrics.Float64Histogram) *metrics.Float64Histogram {
	if now == nil || before == nil || len(now.Counts) != len(before.Counts) {
		return nil
	}
	d := &metrics.Float64Histogram{Buckets: now.Buckets, Counts: make([]uint64, len(now.Counts))}
	for i := range now.Counts {
		d.Counts[i] = now.Counts[i] - before.Counts[i]
	}
	return d
}

// quantileSeconds returns the upper bound of the bucket that holds the
// q-th quantile (0 < q < 1) of h, or 0 when h is nil or empty. The upper
// bound, so that a delay is never reported smaller than it was; an
// unbounded last bucket reports its lower bound.
func quantileSeconds(h *metrics.Float64Histogram, q float64) float64 {
	if h == nil {
		return 0
	}
	var total uint64
	for _, c := range h.Counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range h.Counts {
		seen += c
		if seen >= rank {
			if hi := h.Buckets[i+1]; !math.IsInf(hi, 1) {
				return hi
			}
			return h.Buckets[i]
		}
	}
	return 0
}
