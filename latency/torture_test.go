package latency_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// Writers record two latencies while the clock jumps whole windows ahead
// and readers summarise: whatever rotation a reader meets, its window is
// one consistent state: never more samples than were recorded, none
// negative, and min <= quantiles, mean <= max within the two latencies.
func TestTortureTrackerRotationsUnderReaders(t *testing.T) {
	const lo, hi = time.Millisecond, 50 * time.Millisecond
	var ticks atomic.Int64
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return start.Add(time.Duration(ticks.Load()) * 7 * time.Second) }
	tr := latency.NewTracker(latency.WithWindow(30*time.Second), latency.WithClock(clock))
	var recorded atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writers sync.WaitGroup
	for w := range 4 {
		writers.Go(func() {
			for i := range 200_000 {
				if w == 0 && i%100 == 0 {
					ticks.Add(1) // 2000 ticks of 7 s: a window every 5
				}
				d := lo
				if (w+i)%2 == 0 {
					d = hi
				}
				recorded.Add(1) // before, so that a reader never sees more
				tr.Record(d)
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			qs := []float64{0.01, 0.5, 0.99, 0.999}
			got := make([]time.Duration, len(qs))
			for {
				select {
				case <-stop:
					return
				default:
				}
				s := tr.Summarize(qs, got)
				checkTortureSummary(t, s, got, recorded.Load(), lo, hi)
				snap := tr.Snapshot()
				checkTortureSummary(t, latency.Summary{Count: snap.Count, Min: snap.Min, Max: snap.Max, Mean: snap.Mean},
					[]time.Duration{snap.Quantile(0.5)}, recorded.Load(), lo, hi)
			}
		})
	}
	writers.Wait()
	close(stop)
	wg.Wait()
}

func checkTortureSummary(t *testing.T, s latency.Summary, qs []time.Duration, recorded int64, lo, hi time.Duration) {
	if !assert.GreaterOrEqual(t, s.Count, int64(0)) || !assert.LessOrEqual(t, s.Count, recorded) || s.Count == 0 {
		return
	}
	tol := hi / 100 // bucket midpoints are within 0.8 %
	assert.GreaterOrEqual(t, s.Min, lo-lo/100)
	assert.LessOrEqual(t, s.Max, hi+tol)
	assert.True(t, s.Min <= s.Mean && s.Mean <= s.Max, "%+v", s)
	for _, q := range qs {
		assert.True(t, s.Min <= q && q <= s.Max, "quantile %v outside %+v", q, s)
	}
}
