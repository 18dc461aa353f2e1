package ring_test

import (
	"testing"
	"time"

	"github.com/readpath/readpath/internal/monoclock/monoclocktest"
	"github.com/readpath/readpath/ring"
)

// Phi follows the monotonic clock that time.Now's readings carry, so a
// step of the wall clock (NTP, a resumed VM) between heartbeats neither
// drops a heartbeat as older than the latest nor stretches a silence: a
// detector fed times whose wall clock stepped an hour back, then two
// hours forward, says what one fed the same instants unstepped says.
func TestAWallClockStepMovesNoPhi(t *testing.T) {
	steady, stepped := newIdleDetector(t), newIdleDetector(t)
	t0 := time.Now()
	step := func(at time.Duration, wall time.Duration) time.Time {
		s, ok := monoclocktest.StepWall(t0.Add(at), wall)
		if !ok {
			t.Skip("cannot build a time whose wall clock stepped: time.Time's layout changed")
		}
		return s
	}
	beats := []struct{ at, wall time.Duration }{{0, 0}, {time.Second, 0}, {2 * time.Second, -time.Hour}, {3 * time.Second, -time.Hour}}
	for _, b := range beats {
		steady.Heartbeat("a", t0.Add(b.at))
		stepped.Heartbeat("a", step(b.at, b.wall))
	}
	for _, silence := range []time.Duration{0, time.Second, 10 * time.Second} {
		at := 3*time.Second + silence
		want := steady.Phi("a", t0.Add(at))
		for _, wall := range []time.Duration{-time.Hour, time.Hour} {
			if got := stepped.Phi("a", step(at, wall)); got != want {
				t.Errorf("phi after %v of silence, wall clock stepped %v: %v, want %v", silence, wall, got, want)
			}
		}
	}
}

// newIdleDetector returns a detector whose checks never run during a test.
func newIdleDetector(t *testing.T) *ring.Detector {
	t.Helper()
	d, err := ring.NewDetector(ring.DetectorConfig{CheckInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}
