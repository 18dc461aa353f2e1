package coordinator

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A replica whose expired score is exactly a Badness margin behind the
// best, its key at best·(1+Badness), scores behind the best and is probed
// (rankWith's bar: a key at it is a bucket behind, see bucketize); one
// within the margin is of the best standing and is not.
func TestAnExpiredScoreAtTheBadnessBarIsProbed(t *testing.T) {
	t0 := int64(1e12)
	at := t0 + int64(time.Second) + 1 // past the interval
	for _, tc := range []struct {
		lat    float64
		probed bool
	}{
		{2e6, true},    // exactly best·(1+1): behind
		{1.5e6, false}, // within the margin: not behind
	} {
		s := newSnitch(SnitchConfig{Badness: 1, ResetInterval: time.Second})
		best := rankCandidate("best", "r1", 1e6, 0, at)
		other := rankCandidate("other", "r2", tc.lat, 0, t0)
		cs := []candidate{best, other}
		probed := s.rank(cs, at, 2, true)
		assert.Equal(t, tc.probed, probed, "latency %v", tc.lat)
		if tc.probed {
			assert.Equal(t, []string{"other", "best"}, rankIDs(cs), "the probe goes first")
		} else {
			assert.Equal(t, []string{"best", "other"}, rankIDs(cs), "latency %v", tc.lat)
		}
	}
}
