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

// Loads at one moment refresh a stale threshold once: the first recomputes
// it, the others keep the old value meanwhile and the new one after. A Load
// that had loaded the stale state and got to recompute after the refresher
// had finished refreshed it again (found by review). Every refresh reads
// the tracker's clock once (no Record runs here), so the clock counts them.
// The race is between atomic operations, which synctest cannot order: the
// test makes many tries, bounded by count rather than time.
func TestConcurrentLoadsRefreshOncePerInterval(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var reads atomic.Int64
	tr := latency.NewTracker(latency.WithClock(func() time.Time { reads.Add(1); return base }))
	for range 300 {
		tr.Record(time.Millisecond)
	}
	th := latency.NewThreshold(latency.SpeculativeRetry{}, tr, 5*time.Second, latency.WithRefresh(time.Second))
	reads.Store(0)

	// Two goroutines Load at the same moments, in step: each waits for the
	// other to reach its moment before moving to the next. A step needs both
	// goroutines on a core at once, or the spinning one's time slice spent:
	// under the race detector, on a loaded machine, 200,000 steps took 400 s
	// of a package's 10-minute timeout. Fewer there, as in
	// TestLoadForAnswersItsOwnPolicyDuringSetPolicy: with the second refresh
	// put back, 20,000 steps under the race detector found 12 (and 200,000
	// without it, 4,085).
	phases := int64(200_000)
	if race.Enabled {
		phases = 20_000
	}
	var at [2]atomic.Int64
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for p := int64(1); p <= phases; p++ {
				th.Load(base.Add(time.Duration(p) * time.Second))
				at[g].Store(p)
				for at[1-g].Load() < p {
				}
			}
		})
	}
	wg.Wait()
	if n := reads.Load(); n != phases {
		t.Fatalf("%d refreshes over %d refresh intervals", n, phases)
	}
}
