package latency_test

import (
	"math"
	"slices"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/readpath/readpath/latency"
)

// Ports of the ValueAtQuantile vectors of hdrhistogram-go v1.4.0's
// hdr_test.go. HdrHistogram reports the highest value equivalent to the
// sample and rounds the rank (count·q + 0.5); the tracker reports the
// bucket's midpoint at the nearest rank ⌈count·q⌉. So each case checks the
// tracker against the exact nearest-rank quantile, and against
// HdrHistogram within both histograms' precision.

// checkVector records values (ns) into a tracker and an HdrHistogram of 3
// significant figures, and checks the quantiles qs (in [0, 1]).
func checkVector(t *testing.T, values []int64, qs ...float64) {
	t.Helper()
	tr := frozen()
	h := hdrhistogram.New(1, int64(latency.MaxLatency), 3)
	sorted := make([]time.Duration, len(values))
	for i, v := range values {
		tr.Record(time.Duration(v))
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
		sorted[i] = time.Duration(v)
	}
	slices.Sort(sorted)
	for _, q := range qs {
		want, got := exactQuantile(sorted, q), tr.Quantile(q)
		if !withinPrecision(want, got) {
			t.Errorf("q=%v of %d values: %v, exact %v", q, len(values), got, want)
		}
		if q == 0 || q == 1 { // no rank rule in the way: min and max
			hv := time.Duration(h.ValueAtQuantile(100 * q))
			if diff := math.Abs(float64(got - hv)); diff > float64(hv)/128+float64(hv)/1000+4 {
				t.Errorf("q=%v: %v, HdrHistogram %v", q, got, hv)
			}
		}
	}
}

func seq(from, to int64) []int64 {
	s := make([]int64, 0, to-from)
	for v := from; v < to; v++ {
		s = append(s, v)
	}
	return s
}

// hdr_test.go TestValueAtQuantile: 0 … 999,999 (HdrHistogram: 500223 at 50,
// 999935 at 99.99).
func TestHdrValueAtQuantile(t *testing.T) {
	checkVector(t, seq(0, 1_000_000), 0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 1)
}

// hdr_test.go TestHighSigFig: ten samples from 0.46 to 12.7 ms.
func TestHdrHighSigFig(t *testing.T) {
	checkVector(t, []int64{459876, 669187, 711612, 816326, 931423, 1033197, 1131895, 2477317, 3964974, 12718782},
		0, 0.1, 0.5, 0.9, 0.99, 1)
}

// hdr_test.go TestSubBucketMaskOverflow: 20, 30 and 100 ms. HdrHistogram
// answers 30 ms at 83.33 (it rounds 2.4999 to rank 2); the nearest rank is
// the third sample, 100 ms.
func TestHdrSubBucketMaskOverflow(t *testing.T) {
	checkVector(t, []int64{1e8, 2e7, 3e7}, 0, 0.5, 0.8333, 0.8334, 0.99, 1)
}

// hdr_test.go TestMerge: 0 … 99 and 100 … 199 in two histograms, here in
// two thirds of the window (in µs, where the precision holds).
func TestHdrMergeAcrossThirds(t *testing.T) {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := latency.NewTracker(latency.WithClock(func() time.Time { return at }))
	var sorted []time.Duration
	for i := range 200 {
		if i == 100 {
			at = at.Add(latency.DefaultWindow / 3)
			tr.Quantile(0.5) // packs the first third
		}
		tr.Record(time.Duration(i) * time.Microsecond)
		sorted = append(sorted, time.Duration(i)*time.Microsecond)
	}
	for _, q := range []float64{0, 0.5, 0.999, 1} {
		if want, got := exactQuantile(sorted, q), tr.Quantile(q); !withinPrecision(want, got) {
			t.Errorf("q=%v: %v, exact %v", q, got, want)
		}
	}
}
