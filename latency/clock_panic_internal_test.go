package latency

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A clock given to WithClock that panics during a query (recovered by the
// caller, as a server recovers a handler's panic) leaves the tracker
// unlocked: every later query, and every Threshold refresh over it, had
// waited for the lock for good. (Found by a review.)
func TestPanickingClockLeavesTheTrackerUsable(t *testing.T) {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	boom := false
	tr := NewTracker(WithClock(func() time.Time {
		if boom {
			panic("clock unavailable")
		}
		return at
	}))
	tr.Record(time.Millisecond)
	for name, query := range map[string]func(){
		"Quantile":  func() { tr.Quantile(0.99) },
		"Snapshot":  func() { tr.Snapshot() },
		"Summarize": func() { tr.Summarize([]float64{0.5, 0.99}, make([]time.Duration, 2)) },
	} {
		boom = true
		assert.PanicsWithValue(t, "clock unavailable", query, name)
		boom = false
		require.True(t, tr.mu.TryLock(), "%s left the tracker locked", name)
		tr.mu.Unlock()
	}
	assert.Equal(t, int64(1), tr.Snapshot().Count, "the sample recorded before")
}
