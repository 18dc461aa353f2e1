package ring_test

import (
	"runtime"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/ring"
)

// The window grows as intervals arrive, so its mean (phi and the silence
// bound are computed from the same sum and count) must be that of the last
// size recorded intervals at every step: before, at and after the growth
// steps and the wraps. The reference keeps every interval.
func TestArrivalWindowMatchesTheLastIntervals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		size := rapid.IntRange(1, 40).Draw(t, "size")
		initial, maxGap := 2*time.Second, 3*time.Second
		w, err := ring.NewArrivalWindow(size, initial, maxGap)
		if err != nil {
			t.Fatal(err)
		}
		var recorded []time.Duration
		at := t0
		for i, n := 0, rapid.IntRange(1, 150).Draw(t, "beats"); i < n; i++ {
			gap := time.Duration(rapid.Int64Range(0, int64(4*time.Second)).Draw(t, "gap")) // 0: a duplicate
			if i > 0 {
				at = at.Add(gap)
			}
			w.Add(at)
			switch {
			case i == 0:
				recorded = append(recorded, initial)
			case gap > 0 && gap <= maxGap:
				recorded = append(recorded, gap)
			}
			last := recorded[max(0, len(recorded)-size):]
			var sum time.Duration
			for _, d := range last {
				sum += d
			}
			if want := sum / time.Duration(len(last)); w.Mean() != want {
				t.Fatalf("after %d beats (%d recorded, size %d): mean %v, want %v", i+1, len(recorded), size, w.Mean(), want)
			}
		}
	})
}

// A node just learned holds one interval, not the 1000 of a full window.
func TestANewWindowHoldsOnlyWhatItRecorded(t *testing.T) {
	windows := make([]*ring.ArrivalWindow, 1000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range windows {
		windows[i], _ = ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
		windows[i].Add(t0)
	}
	runtime.ReadMemStats(&after)
	if perWindow := (after.TotalAlloc - before.TotalAlloc) / uint64(len(windows)); perWindow > 256 {
		t.Errorf("a window with one heartbeat takes %d bytes, want at most 256: a full one takes 8000", perWindow)
	}
	runtime.KeepAlive(windows)
}
