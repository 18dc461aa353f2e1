package ring_test

import (
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// Outside what NewDetector accepts, Delay still waits between 0 and Max:
// a negative Initial or Max waits 0, and a Jitter of 1 or more or a draw
// outside [0, 1) (NaN included) is clamped. Delay is exported, and
// returned negative waits (found by review).
func TestBackoffDelayOutsideTheValidatedRange(t *testing.T) {
	for _, tc := range []struct {
		b    ring.Backoff
		n    int
		r    float64
		want time.Duration
	}{
		{ring.Backoff{Initial: -time.Second}, 0, 0, 0},
		{ring.Backoff{Initial: -time.Second}, 2000, 0, 0},
		{ring.Backoff{Max: -time.Second}, 0, 0, 0},
		{ring.Backoff{Initial: -time.Second, Max: -time.Second}, 3, 0.5, 0},
		{ring.Backoff{Jitter: 0.5}, 1, 4, time.Second},      // r taken as 1
		{ring.Backoff{Jitter: 0.5}, 1, -4, 2 * time.Second}, // r taken as 0
		{ring.Backoff{Jitter: 0.5}, 1, math.NaN(), 2 * time.Second},
		{ring.Backoff{Jitter: 0.5}, 1, math.Inf(1), time.Second},
		{ring.Backoff{Jitter: 3}, 1, 0.9, 200 * time.Millisecond}, // Jitter taken as 1
		{ring.Backoff{Jitter: math.Inf(1)}, 1, 0.5, time.Second},
		// The whole wait drawn off: float64 rounds 2^53+3 ns up to 2^53+4, one past
		// the wait, which is floored at 0 rather than going 1 ns negative.
		{ring.Backoff{Initial: 1<<53 + 3, Max: 1<<53 + 3, Jitter: 1}, 0, 1, 0},
	} {
		if got := tc.b.Delay(tc.n, tc.r); got != tc.want {
			t.Errorf("%+v.Delay(%d, %v) = %v, want %v", tc.b, tc.n, tc.r, got, tc.want)
		}
	}
}
