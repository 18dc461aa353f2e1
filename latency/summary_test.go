package latency_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/latency"
)

// Summarize says what a Snapshot of the same window says.
func TestSummarizeAgreesWithSnapshot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := frozen()
		for _, d := range rapid.SliceOf(rapid.Int64Range(-10, int64(2*latency.MaxLatency))).Draw(t, "samples") {
			tr.Record(time.Duration(d))
		}
		qs := rapid.SliceOf(rapid.Float64Range(-0.1, 1.1)).Draw(t, "qs")
		got := make([]time.Duration, len(qs)+1)
		got[len(qs)] = time.Hour // beyond qs: left alone
		s := tr.Summarize(qs, got)
		snap := tr.Snapshot()
		want := latency.Summary{
			Count: snap.Count, Min: snap.Min, Max: snap.Max, Mean: snap.Mean,
			Clamped: snap.Clamped, Negative: snap.Negative,
		}
		if s != want {
			t.Fatalf("Summarize %+v, Snapshot %+v", s, want)
		}
		for i, q := range qs {
			if got[i] != snap.Quantile(q) {
				t.Fatalf("q=%v: Summarize %v, Snapshot %v", q, got[i], snap.Quantile(q))
			}
		}
		if got[len(qs)] != time.Hour {
			t.Fatalf("wrote past qs")
		}
	})
}

func TestSummarizeDoesNotAllocate(t *testing.T) {
	tr := latency.NewTracker()
	for ms := range 1000 {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	qs := []float64{0.5, 0.99, 0.999}
	var q [3]time.Duration
	if n := testing.AllocsPerRun(100, func() { tr.Summarize(qs, q[:]) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
