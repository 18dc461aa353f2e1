package latency

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// readLatencies are the reads of one table: log-normal around 2 ms with a
// GC-pause tail, as the root benchmarks' samples.
var readLatencies = func() []time.Duration {
	r := rand.New(rand.NewPCG(1, 2))
	s := make([]time.Duration, 4096)
	for i := range s {
		ms := math.Exp(math.Log(2) + 0.5*r.NormFloat64())
		if r.IntN(100) == 0 {
			ms += 50 + 50*r.Float64()
		}
		s[i] = time.Duration(ms * float64(time.Millisecond))
	}
	return s
}()

// busyTracker returns a tracker with the given number of stripes that has
// served a window of reads through every stripe: each third, each stripe
// counts readLatencies weight times over. A weight of 1 is about 70 reads a
// second; 25 makes most counts of a third too large for one byte.
func busyTracker(stripes, weight int) *Tracker {
	now := time.Unix(1_700_000_000, 0)
	t := NewTracker(WithClock(func() time.Time { return now }))
	t.set.Store(newStripeSet(nil, stripes, initialSalt))
	for range parts {
		for _, s := range t.set.Load().stripes {
			for _, d := range readLatencies {
				s.rareCounter(bucketOf(d)).Add(uint32(weight))
			}
		}
		now = now.Add(t.sub)
		t.Quantile(0.99) // packs the third that ended
	}
	now = now.Add(-1)
	return t
}

// heapPerTracker returns the heap that each of n trackers made by build
// keeps alive.
func heapPerTracker(n int, build func() *Tracker) float64 {
	trackers := make([]*Tracker, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range trackers {
		trackers[i] = build()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(trackers)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
}

// A tracker that has served reads takes at most 8 KiB with two stripes, as
// on a two-core machine, also when its counts need two bytes each.
func TestTrackerMemoryBudget(t *testing.T) {
	for _, tt := range []struct{ stripes, weight int }{{1, 1}, {2, 1}, {1, 25}, {2, 25}} {
		got := heapPerTracker(500, func() *Tracker { return busyTracker(tt.stripes, tt.weight) })
		assert.LessOrEqual(t, got, 8192.0, "%d stripes, weight %d", tt.stripes, tt.weight)
		t.Logf("%d stripes, weight %d: %.0f B", tt.stripes, tt.weight, got)
	}
	assert.LessOrEqual(t, heapPerTracker(500, func() *Tracker { return NewTracker() }), 256.0, "before the first Record")
}

// BenchmarkTrackerBytesAllStripes reports the heap of a tracker that has
// served a window of reads through as many stripes as contention can give
// it on this machine (maxStripes: twice GOMAXPROCS rounded up to a power of
// two, at most 64, one on one core), at 4,000 trackers: at weight 1 most
// counts of a third fit a byte, at 25 two.
func BenchmarkTrackerBytesAllStripes(b *testing.B) {
	for _, weight := range []int{1, 25} {
		b.Run("weight="+strconv.Itoa(weight), func(b *testing.B) {
			var per float64
			for b.Loop() {
				per = heapPerTracker(4000, func() *Tracker { return busyTracker(maxStripes(), weight) })
			}
			b.ReportMetric(per, "B/tracker")
			b.ReportMetric(float64(maxStripes()), "stripes")
		})
	}
}
