package ring_test

import (
	"math"
	"testing"
	"time"

	"github.com/readpath/readpath/ring"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// beats feeds w heartbeats at t0 plus each offset.
func beats(w *ring.ArrivalWindow, offsets ...time.Duration) {
	for _, off := range offsets {
		w.Add(t0.Add(off))
	}
}

// The window follows Cassandra's ArrivalWindow: the first heartbeat
// records the initial interval, intervals above the maximum are dropped,
// the oldest interval leaves a full window, an out-of-order heartbeat is
// ignored, and so is one at the same instant as the latest (delivered
// twice), which would otherwise count an interval of zero.
func TestArrivalWindowMean(t *testing.T) {
	s := time.Second
	for name, tc := range map[string]struct {
		size    int
		offsets []time.Duration
		mean    time.Duration
	}{
		"empty":                 {10, nil, 0},
		"first records initial": {10, []time.Duration{0}, 2 * s},
		"then real intervals":   {10, []time.Duration{0, s, 2 * s}, (2*s + s + s) / 3},
		"long gap not learnt":   {10, []time.Duration{0, s, 5 * s, 6 * s}, (2*s + s + s) / 3},
		"gap at max is learnt":  {10, []time.Duration{0, 2 * s}, 2 * s},
		"oldest evicted":        {2, []time.Duration{0, s, 2 * s, 2500 * time.Millisecond}, (s + s/2) / 2},
		"out of order ignored":  {10, []time.Duration{0, s, s / 2}, (2*s + s) / 2},
		"same instant ignored":  {10, []time.Duration{0, s, s, s}, (2*s + s) / 2},
		"only duplicates":       {3, []time.Duration{0, 0, 0, 0}, 2 * s},
	} {
		w, _ := ring.NewArrivalWindow(tc.size, 2*s, 2*s)
		beats(w, tc.offsets...)
		if got := w.Mean(); got != tc.mean {
			t.Errorf("%s: mean %v, want %v", name, got, tc.mean)
		}
	}
}

// phi = elapsed / (mean * ln 10): 8 is reached after 8 ln 10 ≈ 18.42 mean
// intervals of silence.
func TestArrivalWindowPhi(t *testing.T) {
	w, _ := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
	if w.Phi(t0) != 0 || w.SilenceBound(8) != 0 {
		t.Error("phi before any heartbeat is not 0")
	}
	beats(w, 0, time.Second) // mean 1.5 s
	last := t0.Add(time.Second)
	for _, silence := range []time.Duration{0, time.Second, 10 * time.Second, time.Minute} {
		want := silence.Seconds() / 1.5 / math.Ln10
		if got := w.Phi(last.Add(silence)); math.Abs(got-want) > 1e-12 {
			t.Errorf("phi after %v: %v, want %v", silence, got, want)
		}
	}
	bound := w.SilenceBound(8)
	mean := 1500 * time.Millisecond
	if want := time.Duration(8 * math.Ln10 * float64(mean)); bound != want {
		t.Errorf("SilenceBound(8) = %v, want %v", bound, want)
	}
	if w.Phi(last.Add(bound)) > 8 || w.Phi(last.Add(bound+time.Millisecond)) <= 8 {
		t.Errorf("phi does not cross 8 at the bound %v", bound)
	}
}

func TestBackoffDelay(t *testing.T) {
	b := ring.Backoff{Initial: time.Second, Max: 10 * time.Second, Jitter: 0.5}
	for _, tc := range []struct {
		n    int
		r    float64
		want time.Duration
	}{
		{0, 0, time.Second},
		{1, 0, 2 * time.Second},
		{3, 0, 8 * time.Second},
		{4, 0, 10 * time.Second},
		{1000, 0, 10 * time.Second},
		{0, 0.5, 750 * time.Millisecond},
		{4, 0.999, 5*time.Second + 5*time.Millisecond},
	} {
		if got := b.Delay(tc.n, tc.r); got != tc.want {
			t.Errorf("Delay(%d, %v) = %v, want %v", tc.n, tc.r, got, tc.want)
		}
	}
	none := ring.Backoff{Initial: time.Second, Max: time.Minute, Jitter: -1}
	if got := none.Delay(2, 0.9); got != 4*time.Second {
		t.Errorf("no jitter: %v", got)
	}
	// Initial * 2^n below Max is the wait for every n, 62 too, and a
	// product past a Duration is capped (found by fuzzing: probe 62
	// waited Max).
	huge := ring.Backoff{Initial: time.Nanosecond, Max: math.MaxInt64, Jitter: -1}
	for n, want := range map[int]time.Duration{61: 1 << 61, 62: 1 << 62, 63: math.MaxInt64, 1 << 20: math.MaxInt64} {
		if got := huge.Delay(n, 0); got != want {
			t.Errorf("%+v.Delay(%d) = %v, want %v", huge, n, got, want)
		}
	}
}

func TestNewArrivalWindowRejectsBadSizes(t *testing.T) {
	// The last row's max interval is one past the size-fold limit: two of
	// them would not add up to a time.Duration.
	for _, tc := range []struct {
		size          int
		initial, most time.Duration
	}{{0, 1, 1}, {1, 0, 1}, {1, 1, -1}, {2, 1, math.MaxInt64/2 + 1}} {
		w, err := ring.NewArrivalWindow(tc.size, tc.initial, tc.most)
		if w != nil || !errorsIs(err, ring.ErrInvalidConfig) {
			t.Errorf("NewArrivalWindow%v = %v, %v", tc, w, err)
		}
	}
}
