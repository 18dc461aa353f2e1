package consistency_test

import (
	"errors"
	"testing"

	c "github.com/readpath/readpath/consistency"
)

// A negative live count counts as none: it was added in, so the
// UnavailableError named fewer replicas alive than were (or a negative
// number), and a DC-local level reported the negative count itself (found
// by review).
func TestAssureSufficientLiveNegativeCountsAsNone(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	tests := []struct {
		level c.Level
		live  map[string]int
		alive int
	}{
		{c.Quorum, map[string]int{"dc1": -5, "dc2": 1}, 1},
		{c.All, map[string]int{"dc1": -1, "dc2": 3}, 3},
		{c.LocalQuorum, map[string]int{"dc1": -3}, 0},
		{c.EachQuorum, map[string]int{"dc1": -2, "dc2": 3}, 0},
	}
	for _, tt := range tests {
		err := c.AssureSufficientLive(tt.level, r, "dc1", tt.live)
		var u *c.UnavailableError
		if !errors.As(err, &u) {
			t.Errorf("%v %v: %v, want an UnavailableError", tt.level, tt.live, err)
			continue
		}
		if u.Alive != tt.alive {
			t.Errorf("%v %v: Alive %d, want %d", tt.level, tt.live, u.Alive, tt.alive)
		}
	}
}
