package latency_test

import (
	"testing"
	"time"

	"github.com/readpath/readpath/latency"
)

// A quantile written as a decimal is the nearest rank of that decimal:
// 0.55 of 100 samples is the 55th, 0.07 the 7th, and a 55p threshold over
// them the 55th, though 0.55·100 is 55.000000000000007 in float64.
func TestQuantileRankOfADecimal(t *testing.T) {
	tr := frozen()
	for i := 1; i <= 100; i++ {
		tr.Record(time.Duration(i) * time.Millisecond)
	}
	snap := tr.Snapshot()
	for _, tt := range []struct {
		q    float64
		want time.Duration
	}{{0.07, 7 * time.Millisecond}, {0.55, 55 * time.Millisecond}, {0.99, 99 * time.Millisecond}} {
		withinBucket(t, tt.want, tr.Quantile(tt.q), "Quantile", tt.q)
		withinBucket(t, tt.want, snap.Quantile(tt.q), "Snapshot.Quantile", tt.q)
		var got [1]time.Duration
		tr.Summarize([]float64{tt.q}, got[:])
		withinBucket(t, tt.want, got[0], "Summarize", tt.q)
	}
	p, err := latency.ParseSpeculativeRetry("55p")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := p.Compute(snap, 0)
	withinBucket(t, 55*time.Millisecond, d, "55p threshold")
}
