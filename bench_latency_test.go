package readpath_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/readpath/readpath/latency"
)

var sinkDuration time.Duration

// latencySamples are the values every record benchmark feeds in: log-normal
// around 2 ms with a GC-pause tail, like the reads of one table. Their number
// is a power of two so that picking one is a mask, not a division that would
// cost as much as the Record it feeds.
const numLatencySamples = 4096

var latencySamples = func() *[numLatencySamples]time.Duration {
	r := rand.New(rand.NewPCG(1, 2))
	s := new([numLatencySamples]time.Duration)
	for i := range s {
		ms := math.Exp(math.Log(2) + 0.5*r.NormFloat64())
		if r.IntN(100) == 0 {
			ms += 50 + 50*r.Float64()
		}
		s[i] = time.Duration(ms * float64(time.Millisecond))
	}
	return s
}()

// parallelOffset gives each RunParallel goroutine its own place in
// latencySamples, so goroutines do not record the same value in lock-step.
var parallelOffset atomic.Uint32

// BenchmarkTrackerRecord is on every read's path: one clock read and one
// atomic add, no allocation.
func BenchmarkTrackerRecord(b *testing.B) {
	t := latency.NewTracker()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t.Record(latencySamples[i%numLatencySamples])
		i++
	}
}

// BenchmarkTrackerRecordParallel must take at most half the time per op of
// BenchmarkHdrMutexRecordParallel.
func BenchmarkTrackerRecordParallel(b *testing.B) {
	t := latency.NewTracker()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(parallelOffset.Add(997))
		for pb.Next() {
			t.Record(latencySamples[i%numLatencySamples])
			i++
		}
	})
}

// BenchmarkHdrMutexRecordParallel is the reference for
// BenchmarkTrackerRecordParallel: an HdrHistogram of the same precision
// (two significant digits) behind a mutex, fed the same values.
func BenchmarkHdrMutexRecordParallel(b *testing.B) {
	h := hdrhistogram.New(1, int64(latency.MaxLatency), 2)
	var mu sync.Mutex
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(parallelOffset.Add(997))
		for pb.Next() {
			mu.Lock()
			_ = h.RecordValue(int64(latencySamples[i%numLatencySamples]))
			mu.Unlock()
			i++
		}
	})
}

// BenchmarkTrackerQuantile is what a threshold refresh costs, once per
// refresh interval per table.
func BenchmarkTrackerQuantile(b *testing.B) {
	t := latency.NewTracker()
	for _, d := range latencySamples {
		t.Record(d)
	}
	b.ReportAllocs()
	for b.Loop() {
		sinkDuration += t.Quantile(0.99)
	}
}

// BenchmarkThresholdLoad is on every read's path: one atomic load while the
// cached threshold is fresh, a recomputation once per refresh interval.
func BenchmarkThresholdLoad(b *testing.B) {
	t := latency.NewTracker()
	for _, d := range latencySamples {
		t.Record(d)
	}
	th := latency.NewThreshold(latency.SpeculativeRetry{}, t, 5*time.Second)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		// A read a microsecond: one recomputation per million loads, as at a
		// million reads a second. The caller has the time already.
		now = now.Add(time.Microsecond)
		d, _ := th.Load(now)
		sinkDuration += d
	}
}
