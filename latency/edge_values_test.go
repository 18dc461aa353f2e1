package latency_test

import (
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/latency"
)

// Every bucket bound, and the nanosecond below it, from 8 ns to MaxLatency:
// a tracker of that one sample reports it within the promised precision at
// quantiles 0, 50, 99.9 and 100 (hdr_test.go's edges, on our buckets: 64 a
// power of two).
func TestSingleSampleAtEveryBucketBound(t *testing.T) {
	for k := 3; k < 36; k++ {
		for j := range int64(64) {
			lo := int64(1)<<k + j<<k/64
			for _, v := range []time.Duration{time.Duration(lo - 1), time.Duration(lo)} {
				tr := frozen()
				tr.Record(v)
				for _, q := range []float64{0, 0.5, 0.999, 1} {
					if got := tr.Quantile(q); !withinPrecision(v, got) {
						t.Fatalf("one sample of %d ns: q=%v gives %d ns", v, q, got)
					}
				}
			}
		}
	}
}

// The ends of the range: zero, the lowest and highest trackable values, and
// past them (clamped); negative samples are not latencies.
func TestEdgeValues(t *testing.T) {
	for _, tt := range []struct {
		name string
		d    time.Duration
		want time.Duration // the exact value the quantile stands for
	}{
		{"zero", 0, 0},
		{"1 ns", 1, 1},
		{"1 µs", time.Microsecond, time.Microsecond},
		{"MaxLatency-1", latency.MaxLatency - 1, latency.MaxLatency - 1},
		{"MaxLatency", latency.MaxLatency, latency.MaxLatency},
		{"an hour", time.Hour, latency.MaxLatency},
		{"MaxInt64", math.MaxInt64, latency.MaxLatency},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := frozen()
			for range 1000 { // all equal
				tr.Record(tt.d)
			}
			tr.Record(-time.Second)
			for _, q := range []float64{0, 0.5, 0.999, 1} {
				if got := tr.Quantile(q); !withinPrecision(tt.want, got) {
					t.Errorf("q=%v: %v, want %v", q, got, tt.want)
				}
			}
			if s := tr.Snapshot(); s.Count != 1000 || s.Negative != 1 {
				t.Errorf("Count %d, Negative %d", s.Count, s.Negative)
			}
		})
	}
}

// Only negative samples: an empty window as far as quantiles go.
func TestOnlyNegativeSamplesAnswerZero(t *testing.T) {
	tr := frozen()
	tr.Record(-1)
	for _, q := range []float64{0, 0.5, 1} {
		if got := tr.Quantile(q); got != 0 {
			t.Errorf("q=%v: %v", q, got)
		}
	}
	p, _ := latency.Percentile(99)
	if d, _ := p.Compute(tr.Snapshot(), 7*time.Millisecond); d != 7*time.Millisecond {
		t.Errorf("99p of negative samples only: %v, not the previous threshold", d)
	}
}
