package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// A delay of 0 ms is ALWAYS's 0 by another name (and MIN's with it, whatever
// the percentile): it hedges every read at once, and is no latency. A
// percentile policy set after it over an empty window starts where a table
// starts, not at 0, which hedged every read until the first refresh found
// samples.
func TestEmptyWindowAfterAZeroDelayIsNoThreshold(t *testing.T) {
	for _, zero := range []string{"0ms", "MIN(99p,0ms)", "MIN(50p,0ms)"} {
		t.Run(zero, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := latency.NewTracker()
				th := latency.NewThreshold(mustParse(t, zero), tr, readTimeout)
				recordN(tr, 10*time.Millisecond, 1000)
				assert.Zero(t, load(th))
				time.Sleep(5 * time.Minute) // the window empties
				th.SetPolicy(latency.SpeculativeRetry{})
				assert.Equal(t, readTimeout/2, load(th), "a table's starting value")
			})
		})
	}
}

// After a learnt threshold, a 0 ms delay in between leaves it in place.
func TestEmptyWindowAfterAZeroDelayKeepsTheLastLatencyThreshold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, th, before := warmThreshold(t)
		th.SetPolicy(mustParse(t, "0ms"))
		assert.Zero(t, load(th))
		time.Sleep(5 * time.Minute)
		th.SetPolicy(latency.SpeculativeRetry{})
		assert.Equal(t, before, load(th))
	})
}

// MIN(Xp,0ms) over a window that empties keeps its threshold, 0, as
// Cassandra keeps a hybrid policy's existing value over an empty window:
// an idle table hedged its next reads at half the read timeout, or at the
// last percentile's threshold, where it had hedged every read at once.
// (Found by a review: the empty window took the memory no 0 goes into.)
// Set over an empty window, it still starts from that memory.
func TestZeroDelayMinKeepsItsThresholdOverAnEmptyWindow(t *testing.T) {
	for _, zero := range []string{"MIN(99p,0ms)", "MIN(50p,0ms)"} {
		t.Run(zero+" from the start", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := latency.NewTracker()
				th := latency.NewThreshold(mustParse(t, zero), tr, readTimeout)
				assert.Equal(t, readTimeout/2, load(th), "before any sample")
				recordN(tr, 10*time.Millisecond, 1000)
				assert.Zero(t, load(th), "its first samples")
				time.Sleep(5 * time.Minute) // the window empties
				assert.Zero(t, load(th))
			})
		})
		t.Run(zero+" after a percentile", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, th, before := warmThreshold(t)
				th.SetPolicy(mustParse(t, zero))
				assert.Zero(t, load(th))
				time.Sleep(5 * time.Minute)
				assert.Zero(t, load(th))
				th.SetPolicy(latency.SpeculativeRetry{})
				assert.Equal(t, before, load(th), "a percentile set after it does not start from 0")
			})
		})
		t.Run(zero+" set over an empty window", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, th, before := warmThreshold(t)
				time.Sleep(5 * time.Minute)
				th.SetPolicy(mustParse(t, zero))
				assert.Equal(t, before, load(th), "the last percentile's, as Cassandra's existing value")
			})
		})
	}
}
