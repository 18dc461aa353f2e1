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
