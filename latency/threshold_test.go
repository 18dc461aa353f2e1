package latency_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

const readTimeout = 5 * time.Second

func mustParse(t *testing.T, s string) latency.SpeculativeRetry {
	t.Helper()
	p, err := latency.ParseSpeculativeRetry(s)
	require.NoError(t, err)
	return p
}

func recordN(tr *latency.Tracker, d time.Duration, n int) {
	for range n {
		tr.Record(d)
	}
}

func TestThresholdStartsAtHalfTheTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, p := range []string{"99p", "MIN(99p,10000ms)", "MAX(99p,1ms)"} {
			th := latency.NewThreshold(mustParse(t, p), latency.NewTracker(), readTimeout)
			d, ok := th.Load(time.Now())
			assert.Equal(t, readTimeout/2, d, p)
			assert.True(t, ok, p)
		}
		d, ok := latency.NewThreshold(latency.SpeculativeRetry{}, nil, readTimeout).Load(time.Now())
		assert.Equal(t, readTimeout/2, d, "a nil tracker never has a sample")
		assert.True(t, ok)
	})
}

func TestThresholdOfFixedAlwaysNeverNeedsNoSample(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tests := map[string]struct {
			d  time.Duration
			ok bool
		}{"40ms": {40 * time.Millisecond, true}, "ALWAYS": {0, true}, "NEVER": {0, false}}
		for p, want := range tests {
			d, ok := latency.NewThreshold(mustParse(t, p), latency.NewTracker(), readTimeout).Load(time.Now())
			assert.Equal(t, want.d, d, p)
			assert.Equal(t, want.ok, ok, p)
		}
	})
}

// warmThreshold returns a 99p threshold whose tracker has recorded enough
// 10 ms reads for its first value, and that value, which follows them.
func warmThreshold(t *testing.T, opts ...latency.ThresholdOption) (*latency.Tracker, *latency.Threshold, time.Duration) {
	t.Helper()
	tr := latency.NewTracker()
	th := latency.NewThreshold(latency.SpeculativeRetry{}, tr, readTimeout, opts...)
	recordN(tr, 10*time.Millisecond, 1000)
	d := load(th)
	withinBucket(t, 10*time.Millisecond, d)
	return tr, th, d
}

// load returns the threshold now, by the bubble's clock.
func load(th *latency.Threshold) time.Duration {
	d, _ := th.Load(time.Now())
	return d
}

func TestThresholdIsCachedUntilStale(t *testing.T) {
	tests := map[string]struct {
		opts    []latency.ThresholdOption
		refresh time.Duration
	}{
		"default": {nil, time.Second},
		"2s":      {[]latency.ThresholdOption{latency.WithRefresh(2 * time.Second)}, 2 * time.Second},
	}
	for name, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			tr, th, first := warmThreshold(t, tt.opts...)
			recordN(tr, 40*time.Millisecond, 1000)
			time.Sleep(tt.refresh - time.Nanosecond)
			assert.Equal(t, first, load(th), "%s, fresh: the cached value", name)
			time.Sleep(time.Nanosecond)
			withinBucket(t, 40*time.Millisecond, load(th), name, "stale: recomputed")
		})
	}
	assert.Equal(t, time.Second, latency.DefaultRefresh)
}

func TestThresholdKeepsPreviousOverAnEmptyWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, th, before := warmThreshold(t)
		time.Sleep(5 * time.Minute) // the window empties
		require.Zero(t, tr.Snapshot().Count)
		d, ok := th.Load(time.Now())
		assert.Equal(t, before, d)
		assert.True(t, ok)
	})
}

func TestThresholdRecomputesEveryLoadWithoutRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, th, _ := warmThreshold(t, latency.WithRefresh(0))
		recordN(tr, 40*time.Millisecond, 100)
		withinBucket(t, 40*time.Millisecond, load(th))
	})
}

func TestSetPolicyTakesEffectOnTheNextLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, th, _ := warmThreshold(t)
		steps := []struct {
			policy string
			d      time.Duration
			ok     bool
		}{
			{"25ms", 25 * time.Millisecond, true},
			{"NEVER", 0, false},
			{"ALWAYS", 0, true},
			{"MAX(99p,30ms)", 30 * time.Millisecond, true},
		}
		for _, s := range steps {
			p := mustParse(t, s.policy)
			th.SetPolicy(p)
			assert.Equal(t, p, th.Policy())
			d, ok := th.Load(time.Now()) // no time has passed: the cache was still fresh
			assert.Equal(t, s.d, d, s.policy)
			assert.Equal(t, s.ok, ok, s.policy)
		}
	})
}

// ALWAYS's 0 is no latency: a percentile policy set after it over an empty
// window keeps the last threshold that followed latency.
func TestEmptyWindowAfterAlwaysKeepsTheLastLatencyThreshold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, th, before := warmThreshold(t)
		for _, p := range []latency.SpeculativeRetry{latency.Always(), latency.Never()} {
			th.SetPolicy(p)
			load(th)
		}
		time.Sleep(5 * time.Minute)
		th.SetPolicy(latency.SpeculativeRetry{})
		d, ok := th.Load(time.Now())
		assert.Equal(t, before, d)
		assert.True(t, ok)
	})
}

func TestNewThresholdWithoutTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		th := latency.NewThreshold(latency.SpeculativeRetry{}, latency.NewTracker(), -time.Second)
		d, ok := th.Load(time.Now())
		assert.Zero(t, d)
		assert.True(t, ok)
		assert.Equal(t, latency.SpeculativeRetry{}, th.Policy())
	})
}

// Loads race each other and SetPolicy while the tracker records; -race
// checks the publication, and every answer is one a policy could give.
func TestConcurrentLoadsAndSetPolicy(t *testing.T) {
	tr := latency.NewTracker()
	th := latency.NewThreshold(latency.SpeculativeRetry{}, tr, readTimeout, latency.WithRefresh(0))
	fixed := mustParse(t, "20ms")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				tr.Record(10 * time.Millisecond)
				if g == 0 && i%100 == 0 {
					th.SetPolicy([]latency.SpeculativeRetry{fixed, {}}[i/100%2])
				}
				d, ok := th.Load(time.Now())
				if !ok || d != 20*time.Millisecond && d != readTimeout/2 && relErr(10*time.Millisecond, d) > 0.01 {
					t.Errorf("Load gave (%v, %v)", d, ok)
					return
				}
			}
		})
	}
	wg.Wait()
}
