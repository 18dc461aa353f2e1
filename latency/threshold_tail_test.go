package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// Tail is a policy's threshold while it has a percentile, and under one
// without (ALWAYS, NEVER, a fixed delay) what the last percentile would
// have set: 99p before any, from half the read timeout.
func TestTailFollowsTheLastPercentileUnderAnyPolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(latency.Always(), tr, readTimeout)
		assert.Equal(t, readTimeout/2, th.Tail(), "no sample yet")
		recordN(tr, 10*time.Millisecond, 98)
		recordN(tr, 50*time.Millisecond, 2)
		load(th)
		withinBucket(t, 50*time.Millisecond, th.Tail(), "99p")

		th.SetPolicy(mustParse(t, "75p"))
		d := load(th)
		withinBucket(t, 10*time.Millisecond, d)
		assert.Equal(t, d, th.Tail(), "the policy's threshold")

		for _, p := range []string{"NEVER", "0ms", "MIN(75p,0ms)", "40ms", "ALWAYS"} {
			th.SetPolicy(mustParse(t, p))
			recordN(tr, 30*time.Millisecond, 100)
			time.Sleep(time.Second)
			load(th)
			withinBucket(t, 30*time.Millisecond, th.Tail(), p, ": the 75p, refreshed")
		}
	})
}

// Under a policy without a percentile, the tail is the last percentile
// policy's, not the default 99p's: after 50p, a 40 ms policy keeps a tail
// at the 50p of the window (10 ms), where 99p would put it at 50 ms.
func TestTailKeepsTheLastPercentileNotTheDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		th := latency.NewThreshold(mustParse(t, "50p"), tr, readTimeout)
		recordN(tr, 10*time.Millisecond, 90)
		recordN(tr, 50*time.Millisecond, 10)
		time.Sleep(time.Second)
		withinBucket(t, 10*time.Millisecond, load(th), "50p")

		th.SetPolicy(mustParse(t, "40ms"))
		time.Sleep(time.Second)
		load(th)
		withinBucket(t, 10*time.Millisecond, th.Tail(), "the 50p, refreshed")
	})
}
