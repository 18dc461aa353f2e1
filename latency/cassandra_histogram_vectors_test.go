package latency_test

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/latency"
)

// Ports of the percentile vectors of Cassandra's
// test/unit/org/apache/cassandra/utils/EstimatedHistogramTest.java and
// metrics/DecayingEstimatedHistogramReservoirTest.java (testPercentile,
// testDecayingPercentile), in microseconds, as Cassandra records latency.
// Cassandra answers a bucket's upper bound (12 for 11 at 0.01, since its
// buckets are 20 % wide) and 0 at quantile 0; the tracker answers the
// nearest-rank sample to its precision, so each case is held to the exact
// quantile.
func TestCassandraPercentileVectors(t *testing.T) {
	for _, tt := range []struct {
		values []int
		qs     []float64
	}{
		{[]int{1}, []float64{0.99}},
		{[]int{1, 10}, []float64{0.99}},
		{[]int{1, 2, 3, 4, 5}, []float64{0, 0.5, 0.6, 1}},
		{[]int{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, []float64{0.01, 0.3, 0.5, 0.6, 0.8}},
		{[]int{0, 0, 1}, []float64{0.5, 0.99}},
	} {
		tr := frozen()
		var sorted []time.Duration
		for _, v := range tt.values {
			tr.Record(time.Duration(v) * time.Microsecond)
			sorted = append(sorted, time.Duration(v)*time.Microsecond)
		}
		slices.Sort(sorted)
		for _, q := range tt.qs {
			if want, got := exactQuantile(sorted, q), tr.Quantile(q); !withinPrecision(want, got) {
				t.Errorf("%v at %v: %v, exact %v", tt.values, q, got, want)
			}
		}
	}
	if got := frozen().Quantile(0.99); got != 0 {
		t.Errorf("an empty tracker: %v", got)
	}
}

// testDecayingPercentile's first case with a window in place of forward
// decay: 10,000 samples of each of 1 … 100 µs, then, a window later, of
// 1 … 50 µs: only the second set counts. As in Cassandra's test, a query
// follows the clock's move: without it, the samples recorded before the
// tracker notices the new third would count with the old one (see the
// package documentation).
func TestCassandraDecayingPercentileAsAWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		check := func(upTo int) {
			t.Helper()
			for _, q := range []float64{0.05, 0.2, 0.4, 0.99} {
				want := time.Duration(exactRankOf(q, upTo)) * time.Microsecond
				withinBucket(t, want, tr.Quantile(q), "q", q, "of 1 …", upTo)
			}
		}
		recordEach := func(upTo int) {
			for v := 1; v <= upTo; v++ {
				for range 10_000 {
					tr.Record(time.Duration(v) * time.Microsecond)
				}
			}
		}
		recordEach(100)
		check(100)
		time.Sleep(tr.Window())
		if got := tr.Quantile(0.99); got != 0 {
			t.Errorf("a window later: %v", got)
		}
		recordEach(50)
		check(50)
		// testDecayingPercentile's second case: a hundred half-lives of
		// silence forget everything; here a hundred windows.
		time.Sleep(100 * tr.Window())
		if got := tr.Quantile(0.99); got != 0 {
			t.Errorf("after 100 silent windows: %v", got)
		}
	})
}

// exactRankOf is the nearest-rank q-quantile of 10,000 samples of each of
// 1 … upTo: the value of rank ⌈q·n⌉.
func exactRankOf(q float64, upTo int) int {
	n := 10_000 * upTo
	r := int(q*float64(n) + 0.999999)
	return (r + 9_999) / 10_000
}
