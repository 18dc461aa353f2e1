package main

import (
	"fmt"
	"math"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"go.uber.org/goleak"
)

func TestTimingWarning(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    timing
		want string // "" for none, else a part of the warning
		also string
	}{
		{"quiet", timing{IdleLateP99: 0.4, LateP99: 1.2, SchedP99: 0.1}, "", ""},
		{"at the limit", timing{LateP99: overloadMS, SchedP99: overloadMS}, "", ""},
		{"late wake-ups", timing{LateP99: 12.3}, "wake-ups 12.3 ms late (p99)", ""},
		{"run queue", timing{LateP99: 2, SchedP99: 7.5}, "goroutines waited up to 7.5 ms to run (p99)", ""},
		{"others' load", timing{IdleLateP99: 40, LateP99: 30}, "wake-ups 30.0 ms late", "40.0 ms already before the run"},
		{"busy before, quiet during", timing{IdleLateP99: 40, LateP99: 1}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.t.warning()
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tc.want)
			assert.Contains(t, got, tc.also)
		})
	}
}

func TestQuantileSeconds(t *testing.T) {
	h := &metrics.Float64Histogram{
		Buckets: []float64{0, 0.001, 0.002, 0.005, math.Inf(1)},
		Counts:  []uint64{90, 8, 1, 1},
	}
	for _, tc := range []struct{ q, want float64 }{
		{0.5, 0.001}, {0.9, 0.001}, {0.95, 0.002}, {0.98, 0.002}, {0.99, 0.005}, {1, 0.005},
	} {
		assert.Equal(t, tc.want, quantileSeconds(h, tc.q), "q %v", tc.q)
	}
	assert.Zero(t, quantileSeconds(nil, 0.99))
	assert.Zero(t, quantileSeconds(&metrics.Float64Histogram{Buckets: []float64{0, 1}, Counts: []uint64{0}}, 0.99))
}

func TestHistDelta(t *testing.T) {
	before := &metrics.Float64Histogram{Buckets: []float64{0, 1, 2}, Counts: []uint64{5, 1}}
	now := &metrics.Float64Histogram{Buckets: []float64{0, 1, 2}, Counts: []uint64{7, 4}}
	assert.Equal(t, []uint64{2, 3}, histDelta(now, before).Counts)
	assert.Nil(t, histDelta(now, nil))
	assert.Nil(t, histDelta(now, &metrics.Float64Histogram{Counts: []uint64{1}}))
}

// The probe measures real sleeps and stops its goroutine.
func TestProbeMeasuresAndStops(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	end := startProbe()
	time.Sleep(20 * probeInterval)
	got := end()
	assert.GreaterOrEqual(t, got.LateP99, 0.0)
	assert.GreaterOrEqual(t, got.SchedP99, 0.0)
	assert.Zero(t, got.IdleLateP99, "set by the run, not the probe")
}

// A wait is read as the upper end of the runtime's bucket that holds the
// p99: near 5 ms the buckets are a quarter wide, so every goroutine
// waiting 4.3 ms flags the row, and the warning says "up to" the bucket's
// end rather than that they waited 5.2 ms (found by review).
func TestSchedulingDelayIsTheUpperEndOfItsBucket(t *testing.T) {
	s := []metrics.Sample{{Name: schedLatencyMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		t.Skip("the runtime does not report scheduling latencies")
	}
	buckets := s[0].Value.Float64Histogram().Buckets
	h := &metrics.Float64Histogram{Buckets: buckets, Counts: make([]uint64, len(buckets)-1)}
	const wait = 0.0043
	var hi float64
	for i := range h.Counts {
		if buckets[i] <= wait && wait < buckets[i+1] {
			h.Counts[i], hi = 1000, buckets[i+1]
		}
	}
	tm := timing{LateP99: 0.5, SchedP99: round2(1000 * quantileSeconds(h, 0.99))}
	assert.Equal(t, round2(1000*hi), tm.SchedP99)
	assert.Greater(t, tm.SchedP99, 5.0, "flags the row")
	assert.Contains(t, tm.warning(), fmt.Sprintf("goroutines waited up to %.1f ms to run (p99)", tm.SchedP99))
}
