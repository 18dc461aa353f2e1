package latency_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// Quantiles stay within 1 % of the recorded value at the edges of the
// tracked range, and a value past it reports MaxLatency.
func TestQuantileAtTheEdgesOfTheRange(t *testing.T) {
	for _, d := range []time.Duration{
		time.Microsecond, time.Microsecond + 1, 1023, 1024, 1025, 2047, 2048,
		time.Second, latency.MaxLatency / 2, latency.MaxLatency/2 - 1, latency.MaxLatency - 1,
	} {
		tr := frozen()
		tr.Record(d)
		for _, q := range []float64{0, 0.5, 0.99, 1} {
			got := tr.Quantile(q)
			assert.LessOrEqual(t, relErr(d, got), 0.01, "single sample %v, q %v: got %v", d, q, got)
			assert.Less(t, got, latency.MaxLatency+1, "%v", d)
		}
		s := tr.Snapshot()
		assert.Equal(t, int64(1), s.Count)
		assert.Zero(t, s.Clamped, "%v is in range", d)
	}
	for _, d := range []time.Duration{latency.MaxLatency, latency.MaxLatency + 1, time.Hour, 1<<63 - 1} {
		tr := frozen()
		tr.Record(d)
		assert.Equal(t, latency.MaxLatency, tr.Quantile(0.5), "%v", d)
		s := tr.Snapshot()
		assert.Equal(t, int64(1), s.Count, "%v", d)
		assert.Equal(t, int64(1), s.Clamped, "%v", d)
		assert.Equal(t, latency.MaxLatency, s.Max)
	}
}

// Nearest rank at the 99th percentile: with 100 samples, 99 fast and one
// slow, 99p is the fast value; with 99 and two slow, the slow one.
func TestNinetyNinthPercentileIsNearestRank(t *testing.T) {
	tr := frozen()
	recordN(tr, time.Millisecond, 99)
	tr.Record(time.Second)
	assert.LessOrEqual(t, relErr(time.Millisecond, tr.Quantile(0.99)), 0.01)
	assert.LessOrEqual(t, relErr(time.Second, tr.Quantile(0.991)), 0.01)
	tr.Record(time.Second)
	assert.LessOrEqual(t, relErr(time.Second, tr.Quantile(0.99)), 0.01, "rank ⌈0.99·101⌉ = 100 is slow")
}

// Once the window slid past every sample, all of them fade: the tracker
// answers an empty window, and a threshold keeps its previous value.
func TestEverythingFadesAndTheThresholdStays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker(latency.WithWindow(3 * time.Second))
		th := latency.NewThreshold(mustParse(t, "MIN(90p,20ms)"), tr, readTimeout, latency.WithRefresh(10*time.Millisecond))
		recordN(tr, 10*time.Millisecond, 100)
		d, ok := th.Load(time.Now())
		require.True(t, ok)
		assert.LessOrEqual(t, relErr(10*time.Millisecond, d), 0.01, "got %v", d)

		time.Sleep(3 * time.Second)
		assert.Zero(t, tr.Quantile(0.9))
		assert.Zero(t, tr.Snapshot().Count)
		d2, ok := th.Load(time.Now())
		assert.True(t, ok)
		assert.Equal(t, d, d2, "an empty window keeps the previous threshold")

		// New samples after the gap move it again, on their own.
		recordN(tr, 40*time.Millisecond, 100)
		time.Sleep(20 * time.Millisecond)
		d3, _ := th.Load(time.Now())
		assert.Equal(t, 20*time.Millisecond, d3, "MIN takes the fixed bound once the percentile is above it")
	})
}

// Before any sample every latency-following policy answers half the read
// timeout, MIN and MAX included (Cassandra's HybridSpeculativeRetryPolicy
// keeps existingValue over an empty snapshot); FIXED, ALWAYS, NEVER need
// none.
func TestThresholdBeforeAnySample(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for p, want := range map[string]time.Duration{
			"50p": readTimeout / 2, "MIN(99p,1ms)": readTimeout / 2, "MAX(99p,1ms)": readTimeout / 2,
			"7ms": 7 * time.Millisecond, "0ms": 0, "ALWAYS": 0,
		} {
			th := latency.NewThreshold(mustParse(t, p), latency.NewTracker(), readTimeout)
			for range 3 {
				d, ok := th.Load(time.Now())
				assert.True(t, ok, p)
				assert.Equal(t, want, d, p)
				time.Sleep(2 * latency.DefaultRefresh)
			}
		}
		_, ok := latency.NewThreshold(latency.Never(), latency.NewTracker(), readTimeout).Load(time.Now())
		assert.False(t, ok)
	})
}

// MIN and MAX apply to the percentile of the samples and the fixed delay.
func TestMinMaxThresholds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		recordN(tr, 10*time.Millisecond, 1000)
		for p, want := range map[string]time.Duration{
			"MIN(99p,5ms)": 5 * time.Millisecond, "MAX(99p,5ms)": 10 * time.Millisecond,
			"MIN(99p,50ms)": 10 * time.Millisecond, "MAX(99p,50ms)": 50 * time.Millisecond,
			"MIN(99p,0ms)": 0,
		} {
			d, ok := latency.NewThreshold(mustParse(t, p), tr, readTimeout).Load(time.Now())
			assert.True(t, ok, p)
			if want == 0 {
				assert.Zero(t, d, p)
				continue
			}
			assert.LessOrEqual(t, relErr(want, d), 0.01, "%s: got %v", p, d)
		}
	})
}

// Concurrent Loads, Records and SetPolicy calls race on nothing (run with
// -race), and every Load answers a value of one of the policies in play.
// The tracker's clock ticks a microsecond a reading, so that its window
// slides under the goroutines without real time.
func TestConcurrentThresholdUse(t *testing.T) {
	var ticks atomic.Int64
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return base.Add(time.Duration(ticks.Add(1)) * time.Microsecond) }
	tr := latency.NewTracker(latency.WithWindow(30*time.Millisecond), latency.WithClock(clock))
	th := latency.NewThreshold(mustParse(t, "99p"), tr, readTimeout, latency.WithRefresh(0))
	policies := []latency.SpeculativeRetry{mustParse(t, "99p"), mustParse(t, "3ms"), latency.Always(), latency.Never(), mustParse(t, "MAX(50p,4ms)")}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20_000 {
				tr.Record(time.Duration(1+i%5) * time.Millisecond)
				if g == 0 && i%50 == 0 {
					th.SetPolicy(policies[(i/50)%len(policies)])
				}
				d, ok := th.Load(clock())
				if ok && (d < 0 || d > readTimeout/2) {
					t.Errorf("threshold %v out of range", d)
				}
			}
		})
	}
	wg.Wait()
}

// The first threshold waits for ⌈2/(1-p)⌉ samples while that fits the
// tracker's early count (65536): 64517 for 99.9969p; from 99.997p on it
// waits for the refresh interval instead, as documented.
func TestFirstThresholdAtTheEarlyCountBoundary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(mustParse(t, "99.9969p"), tr, readTimeout)
		d, _ := th.Load(time.Now())
		require.Equal(t, readTimeout/2, d, "the first Load finds no sample")
		recordN(tr, 10*time.Millisecond, 64516)
		d, _ = th.Load(time.Now())
		assert.Equal(t, readTimeout/2, d, "one sample short")
		tr.Record(10 * time.Millisecond)
		d, _ = th.Load(time.Now())
		assert.LessOrEqual(t, relErr(10*time.Millisecond, d), 0.01, "enough samples: at once, got %v", d)

		tr2 := latency.NewTracker()
		th2 := latency.NewThreshold(mustParse(t, "99.997p"), tr2, readTimeout)
		d, _ = th2.Load(time.Now())
		require.Equal(t, readTimeout/2, d)
		recordN(tr2, 10*time.Millisecond, 100_000)
		d, _ = th2.Load(time.Now())
		assert.Equal(t, readTimeout/2, d, "past the early count: waits for the refresh")
		time.Sleep(latency.DefaultRefresh)
		d, _ = th2.Load(time.Now())
		assert.LessOrEqual(t, relErr(10*time.Millisecond, d), 0.01, "the refresh takes it, got %v", d)
	})
}
