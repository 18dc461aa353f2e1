package ring_test

import (
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// A Backoff's zero fields take the defaults their docs state (1 s, 60 s,
// 0.2) in Delay too, not only in a DetectorConfig: Backoff{Initial: 1s},
// whose Max of 0 capped every wait at 0, gave an embedder reconnecting
// with it no wait at all.
func TestBackoffDelayTakesTheDefaults(t *testing.T) {
	for _, tc := range []struct {
		b    ring.Backoff
		n    int
		r    float64
		want time.Duration
	}{
		{ring.Backoff{}, 0, 0, time.Second},
		{ring.Backoff{}, 3, 0, 8 * time.Second},
		{ring.Backoff{}, 10, 0, time.Minute},
		{ring.Backoff{}, 0, 0.5, 900 * time.Millisecond}, // 0.2 jitter, half of it drawn
		{ring.Backoff{Initial: time.Second}, 3, 0, 8 * time.Second},
		{ring.Backoff{Max: 10 * time.Second}, 2, 0, 4 * time.Second},
		{ring.Backoff{Jitter: -1}, 1, 0.9, 2 * time.Second},
	} {
		if got := tc.b.Delay(tc.n, tc.r); got != tc.want {
			t.Errorf("%+v.Delay(%d, %v) = %v, want %v", tc.b, tc.n, tc.r, got, tc.want)
		}
	}
}

// Setting only Probe.Initial, above a minute, is accepted: Max's default
// follows it, as MaxInterval's follows InitialInterval. NewDetector refused
// Probe{Initial: 2 min} with "Probe.Max: 1m0s below Probe.Initial", naming
// a setting the embedder had left to its default.
func TestProbeMaxDefaultFollowsALongInitial(t *testing.T) {
	b := ring.Backoff{Initial: 2 * time.Minute}
	d, err := ring.NewDetector(ring.DetectorConfig{Probe: b})
	if err != nil {
		t.Fatalf("NewDetector with only Probe.Initial 2m: %v", err)
	}
	_ = d.Close()
	for n := range 3 {
		if got := b.Delay(n, 0); got != b.Initial {
			t.Errorf("Delay(%d, 0) = %v, want %v, capped at Initial", n, got, b.Initial)
		}
	}
}
