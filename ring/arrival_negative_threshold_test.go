package ring_test

import (
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// Phi is never negative, so it passes a negative threshold at once: the
// silence bound is 0, not a negative duration, which said phi passed the
// threshold before the latest heartbeat (found by review). A NaN
// threshold is never passed: the longest duration.
func TestSilenceBoundOfANegativeThreshold(t *testing.T) {
	w, err := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(time.Unix(1_700_000_000, 0))
	for _, threshold := range []float64{-1, -1e300, math.Inf(-1)} {
		if b := w.SilenceBound(threshold); b != 0 {
			t.Errorf("SilenceBound(%g) = %v, want 0", threshold, b)
		}
	}
	if b := w.SilenceBound(math.NaN()); b != math.MaxInt64 {
		t.Errorf("SilenceBound(NaN) = %v, want the longest duration", b)
	}
}
