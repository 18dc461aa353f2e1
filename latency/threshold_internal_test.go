package latency

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustPolicy(t *testing.T, s string) SpeculativeRetry {
	t.Helper()
	p, err := ParseSpeculativeRetry(s)
	require.NoError(t, err)
	return p
}

// A Load that finds another one refreshing gets the value in force: the
// policy's from the very first read, and the new policy's right after
// SetPolicy, never the read-timeout placeholder or the old policy's.
func TestLoadDuringARefreshGetsThePolicysThreshold(t *testing.T) {
	th := NewThreshold(mustPolicy(t, "10ms"), NewTracker(), 5*time.Second)
	th.refreshing.Store(true) // another Load is recomputing
	now := time.Now()

	d, ok := th.Load(now)
	assert.True(t, ok)
	assert.Equal(t, 10*time.Millisecond, d)

	th.SetPolicy(mustPolicy(t, "25ms"))
	d, ok = th.Load(now)
	assert.True(t, ok)
	assert.Equal(t, 25*time.Millisecond, d)

	th.SetPolicy(mustPolicy(t, "NEVER"))
	_, ok = th.Load(now)
	assert.False(t, ok)

	th.SetPolicy(mustPolicy(t, "99p")) // no samples: the last fixed delay stands
	d, ok = th.Load(now)
	assert.True(t, ok)
	assert.Equal(t, 25*time.Millisecond, d)
}

func TestMinSamples(t *testing.T) {
	tests := map[string]uint32{
		"50p": 4, "90p": 20, "99p": 200, "99.9p": 2000, "99.99p": 20_000, "99.996p": 50_000, "99.9969p": 64_517,
		"33.3333p": 3, "0.0001p": 3, "MIN(99p,10ms)": 200, "MAX(75p,1ms)": 8,
		"99.997p": 0, "99.9999p": 0, // more than a tracker counts early
		"10ms": 0, "ALWAYS": 0, "NEVER": 0,
	}
	for policy, want := range tests {
		assert.Equal(t, want, mustPolicy(t, policy).minSamples(), policy)
	}
	assert.Equal(t, uint32(200), SpeculativeRetry{}.minSamples(), "the zero policy is 99p")
}

// Negative samples are no latency, and do not count towards the samples a
// first threshold waits for: recorded leaves them aside, as its doc says.
func TestNegativeSamplesAreNotRecordedForTheFirstThreshold(t *testing.T) {
	tr := NewTracker()
	for range 10 {
		tr.Record(-time.Millisecond)
	}
	tr.Record(time.Millisecond)
	assert.Equal(t, uint32(1), tr.recorded())
}
