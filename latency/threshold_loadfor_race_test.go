package latency_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/latency"
)

// A read holding a policy gets that policy's threshold from LoadFor while
// SetPolicy swaps the table's policy back and forth (ALTER TABLE during
// reads). LoadFor checked the policy of the state it loaded, then
// recompute loaded the state again and answered for whatever policy it
// then held: a read under NEVER was told to speculate, one under 10ms not
// to (found by review; it showed within 2,800 to 280,000 pairs of calls).
// The race is between two atomic loads, which synctest cannot order, so
// the test makes many tries, bounded by count rather than time.
func TestLoadForAnswersItsOwnPolicyDuringSetPolicy(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	never, fixed := latency.Never(), mustParse(t, "10ms")
	// WithRefresh(0): every LoadFor of the policy in force goes through
	// recompute, as the first read after each refresh interval does.
	th := latency.NewThreshold(never, latency.NewTracker(), time.Second, latency.WithRefresh(0))

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			th.SetPolicy(fixed)
			th.SetPolicy(never)
		}
	})
	defer func() { stop.Store(true); wg.Wait() }()

	tries := 1_000_000
	if testing.Short() || race.Enabled {
		tries = 200_000
	}
	now := time.Now()
	for range tries {
		if d, ok := th.LoadFor(never, now); ok {
			t.Fatalf("LoadFor(NEVER) = (%v, true): a read under NEVER was told to speculate", d)
		}
		if d, ok := th.LoadFor(fixed, now); !ok || d != 10*time.Millisecond {
			t.Fatalf("LoadFor(10ms) = (%v, %v), want (10ms, true)", d, ok)
		}
	}
}
