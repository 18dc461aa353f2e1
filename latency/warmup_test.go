package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// A percentile policy's first threshold comes from the table's samples at
// the first Load that finds ⌈2/(1-p)⌉ of them, without waiting for the
// refresh interval; one sample fewer keeps half the read timeout.
func TestFirstThresholdComesWithEnoughSamples(t *testing.T) {
	tests := []struct {
		policy string
		need   int
		want   time.Duration // from samples of 10 ms
	}{
		{"50p", 4, 10 * time.Millisecond},
		{"90p", 20, 10 * time.Millisecond},
		{"99p", 200, 10 * time.Millisecond},
		{"99.9p", 2000, 10 * time.Millisecond},
		{"99.99p", 20_000, 10 * time.Millisecond},
		{"MIN(90p,5ms)", 20, 5 * time.Millisecond},
		{"MAX(99p,1ms)", 200, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			tr := latency.NewTracker()
			th := latency.NewThreshold(mustParse(t, tt.policy), tr, readTimeout)
			assert.Equal(t, readTimeout/2, load(th), tt.policy)
			time.Sleep(time.Millisecond)
			recordN(tr, 10*time.Millisecond, tt.need-1)
			assert.Equal(t, readTimeout/2, load(th), "%s after %d samples", tt.policy, tt.need-1)
			tr.Record(10 * time.Millisecond)
			withinBucket(t, tt.want, load(th), tt.policy, "at once, 1 ms after the first Load")
		})
	}
}

// With fewer samples, the first refresh uses those there are, as before;
// the threshold still takes the first value from enough samples as soon as
// they are there, then refreshes on schedule.
func TestFirstRefreshUsesFewSamplesUntilThereAreEnough(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(latency.SpeculativeRetry{}, tr, readTimeout)
		load(th) // the first Load: refreshes are due a second after it
		recordN(tr, 10*time.Millisecond, 4)
		tr.Record(30 * time.Millisecond)
		time.Sleep(time.Second - time.Nanosecond)
		assert.Equal(t, readTimeout/2, load(th))
		time.Sleep(time.Nanosecond)
		withinBucket(t, 30*time.Millisecond, load(th), "the 99p of five samples is their maximum")

		time.Sleep(100 * time.Millisecond)
		recordN(tr, 10*time.Millisecond, 195)
		withinBucket(t, 10*time.Millisecond, load(th), "200 samples: at once")

		recordN(tr, 20*time.Millisecond, 1000)
		time.Sleep(time.Second - time.Nanosecond)
		withinBucket(t, 10*time.Millisecond, load(th), "then cached for a refresh interval")
		time.Sleep(time.Nanosecond)
		withinBucket(t, 20*time.Millisecond, load(th))
	})
}

// A percentile so high that a tracker does not count that many samples
// early waits for the first refresh.
func TestFirstThresholdOfAVeryHighPercentileWaitsForTheRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(mustParse(t, "99.999p"), tr, readTimeout)
		load(th)
		recordN(tr, 10*time.Millisecond, 300_000)
		assert.Equal(t, readTimeout/2, load(th))
		time.Sleep(time.Second)
		withinBucket(t, 10*time.Millisecond, load(th))
	})
}

// A policy set at run time that needs more samples than the table has
// computes from what there is, and again as soon as there are enough.
func TestSetPolicyWaitsForItsOwnSamples(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, th, _ := warmThreshold(t) // 1000 samples of 10 ms
		th.SetPolicy(mustParse(t, "99.9p"))
		withinBucket(t, 10*time.Millisecond, load(th))
		recordN(tr, 50*time.Millisecond, 999)
		withinBucket(t, 10*time.Millisecond, load(th), "1999 samples: the refreshed value stands")
		tr.Record(50 * time.Millisecond)
		withinBucket(t, 50*time.Millisecond, load(th), "2000 samples: at once")
	})
}

// Policies without a percentile never wait for samples.
func TestFixedThresholdIsCachedFromTheStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(mustParse(t, "40ms"), tr, readTimeout)
		assert.Equal(t, 40*time.Millisecond, load(th))
		recordN(tr, 10*time.Millisecond, 10_000)
		assert.Equal(t, 40*time.Millisecond, load(th))
	})
}

// MIN's bound holds from the first refresh that finds a sample, not from
// the first read: before any, MIN and MAX keep the starting value, as
// Cassandra's HybridSpeculativeRetryPolicy keeps existingValue over an
// empty snapshot (the README says so; it once promised the bound from
// the first read).
func TestMinBoundHoldsFromTheFirstRefreshWithSamples(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(mustParse(t, "MIN(99p,50ms)"), tr, readTimeout)
		assert.Equal(t, readTimeout/2, load(th), "the first read")
		recordN(tr, 80*time.Millisecond, 10)
		time.Sleep(time.Second - time.Nanosecond)
		assert.Equal(t, readTimeout/2, load(th), "ten samples, before the first refresh")
		time.Sleep(time.Nanosecond)
		assert.Equal(t, 50*time.Millisecond, load(th), "the first refresh: the bound, under the samples' 99p")
	})
}
