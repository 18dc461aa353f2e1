package ring_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

// An arrival window refuses intervals whose window-fold sum would not fit
// a time.Duration; the largest it accepts keeps Mean and Phi positive. An
// initial interval of math.MaxInt64 was accepted, and its sum with the
// next interval wrapped negative, and Mean and Phi with it (found by a
// review of extremes).
func TestArrivalWindowIntervalsAddUp(t *testing.T) {
	var ce *ring.ConfigError
	if _, err := ring.NewArrivalWindow(1000, math.MaxInt64, math.MaxInt64); !errors.As(err, &ce) {
		t.Fatalf("NewArrivalWindow(1000, MaxInt64, MaxInt64) = %v, want a *ConfigError", err)
	}
	if _, err := ring.NewDetector(ring.DetectorConfig{InitialInterval: math.MaxInt64}); !errors.As(err, &ce) {
		t.Fatalf("NewDetector with an InitialInterval of MaxInt64 = %v, want a *ConfigError", err)
	}
	largest := time.Duration(math.MaxInt64 / 1000)
	w, err := ring.NewArrivalWindow(1000, largest, largest)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 1000 {
		w.Add(t0.Add(time.Duration(i) * largest))
	}
	if m := w.Mean(); m <= 0 {
		t.Errorf("Mean() = %v after intervals of %v, want positive", m, largest)
	}
	if phi := w.Phi(t0.Add(time.Hour)); phi < 0 {
		t.Errorf("Phi = %v, documented never negative", phi)
	}
}

// SilenceBound saturates at the longest time.Duration: a threshold or a
// mean interval whose product passed it converted to a negative duration,
// which said phi passed the threshold before the heartbeat arrived.
func TestSilenceBoundSaturates(t *testing.T) {
	w, err := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(time.Unix(1_700_000_000, 0))
	// The threshold whose bound is exactly 2^63 ns, one past the longest
	// Duration, which converted to the shortest (negative) one on amd64.
	ln10, mean := math.Ln10, float64(2*time.Second)
	edge := 0x1p63 / ln10 / mean
	for edge*ln10*mean < 0x1p63 {
		edge = math.Nextafter(edge, math.Inf(1))
	}
	for edge*ln10*mean > 0x1p63 {
		edge = math.Nextafter(edge, 0)
	}
	if edge*ln10*mean != 0x1p63 {
		t.Fatalf("no threshold makes a bound of exactly 2^63 ns: %v gives %v", edge, edge*ln10*mean)
	}
	for _, threshold := range []float64{1e10, 1e300, math.Inf(1), edge} {
		if b := w.SilenceBound(threshold); b != math.MaxInt64 {
			t.Errorf("SilenceBound(%g) = %v with a 2s mean interval, want the longest duration", threshold, b)
		}
	}
}
