package latency_test

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/readpath/readpath/latency"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// frozen returns a tracker whose clock never moves, so that its window never
// slides and every sample stays counted.
func frozen() *latency.Tracker {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return latency.NewTracker(latency.WithClock(func() time.Time { return at }))
}

// spreadOver returns a tracker that records s, the clock moving on evenly
// over one window meanwhile, so that the samples lie in each of its thirds,
// the first two finished; the clock stays where every sample still counts.
func spreadOver(s []time.Duration) *latency.Tracker {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	start := at
	tr := latency.NewTracker(latency.WithClock(func() time.Time { return at }))
	for i, d := range s {
		at = start.Add(time.Duration(i) * latency.DefaultWindow / time.Duration(len(s)))
		tr.Record(d)
		if i%100 == 0 {
			tr.Quantile(0.5) // as threshold refreshes do: packs finished thirds
		}
	}
	return tr
}

// withinBucket asserts that got reports want to the tracker's precision.
func withinBucket(t assertT, want, got time.Duration, msg ...any) bool {
	t.Helper()
	if err := relErr(want, got); err > 1.0/128 {
		t.Errorf("got %v, want %v within 0.8 %% (off by %.3f %%) %v", got, want, 100*err, msg)
		return false
	}
	return true
}

type assertT interface {
	Helper()
	Errorf(format string, args ...any)
}

func relErr(want, got time.Duration) float64 {
	diff := float64(got - want)
	if diff < 0 {
		diff = -diff
	}
	return diff / float64(want)
}
