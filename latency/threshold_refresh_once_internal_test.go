package latency

import (
	"testing"
	"time"
)

// A Load that read the state before another Load's refresh was published
// reaches recompute after that refresh: it must find the new state fresh
// and keep it, not refresh again within the interval (found by review:
// recompute's freshness check was `now.Before(next) && recorded() < need`,
// false whenever need is 0, that is once the first threshold is set).
func TestRecomputeKeepsAFreshThreshold(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := base
	tr := NewTracker(WithClock(func() time.Time { return at }))
	for range 300 {
		tr.Record(time.Millisecond)
	}
	th := NewThreshold(SpeculativeRetry{}, tr, 5*time.Second)
	d0, _ := th.Load(base) // the refresh: 300 samples, 99p of 1 ms
	fresh := th.state.Load()
	if fresh.need != 0 || !base.Before(fresh.due) {
		t.Fatalf("after the first refresh: need %d, due %v", fresh.need, fresh.due)
	}
	for range 300 {
		tr.Record(50 * time.Millisecond)
	}
	// What a concurrent Load does that loaded the state before the refresh
	// above stored it, and claims the refresh after it ended.
	th.recompute(base)
	if got := th.state.Load(); got != fresh {
		t.Errorf("a fresh threshold (next %v) refreshed again at %v: %v became %v", fresh.next, base, fresh.d, got.d)
	}
	if d, _ := th.Load(base.Add(time.Millisecond)); d != d0 {
		t.Errorf("within the refresh interval the threshold moved from %v to %v", d0, d)
	}
}
