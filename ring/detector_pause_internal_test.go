package ring

import (
	"testing"
	"time"
)

// The guard follows Cassandra's FailureDetector.interpret: a gap between
// checks above max is a pause, and no check convicts until max after the
// latest pause.
func TestPauseGuard(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name   string
		max    time.Duration
		checks []time.Duration // times of the checks, from the guard's start
		allow  []bool
	}{
		{"regular checks", 5 * s, []time.Duration{s, 2 * s, 3 * s}, []bool{true, true, true}},
		{"a gap of max is no pause", 5 * s, []time.Duration{s, 6 * s, 7 * s}, []bool{true, true, true}},
		{"a longer gap holds max", 5 * s, []time.Duration{s, 7 * s, 8 * s, 11 * s, 12 * s},
			[]bool{true, false, false, false, true}},
		{"a pause during the hold restarts it", 5 * s, []time.Duration{s, 7 * s, 13 * s, 17 * s, 18 * s},
			[]bool{true, false, false, false, true}},
		{"off", -1, []time.Duration{s, 60 * s, 61 * s}, []bool{true, true, true}},
	} {
		var start time.Time
		g := pauseGuard{max: tc.max, last: start}
		for i, at := range tc.checks {
			if got := g.allow(start.Add(at)); got != tc.allow[i] {
				t.Errorf("%s: check at %v allowed %v, want %v", tc.name, at, got, tc.allow[i])
			}
		}
	}
}
