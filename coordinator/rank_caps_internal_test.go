package coordinator

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Replicas at their cap go last without deciding how the others rank:
// ranked among them, their stale keys (a hung replica records no miss)
// set the bar past which bucketize cuts keys as never selected, and the
// replicas beyond it tied in the locator's order, so a 100 ms replica
// came before a 5 ms one (found by review).
func TestReplicasAtTheirCapDoNotReorderTheOthers(t *testing.T) {
	ms := float64(time.Millisecond)
	for _, c := range []struct {
		capped int
		want   []string
	}{
		{3, []string{"e", "d", "a", "b", "c"}},
		{2, []string{"c", "e", "d", "a", "b"}},
	} {
		s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
		s.abandonCap = 1
		now := int64(1e12)
		cs := []candidate{
			rankCandidate("a", "r1", 1*ms, 0, now),
			rankCandidate("b", "r2", 1*ms, 0, now),
			rankCandidate("c", "r3", 3*ms, 0, now),
			rankCandidate("d", "r4", 100*ms, 0, now),
			rankCandidate("e", "r5", 5*ms, 0, now),
		}
		for _, cand := range cs[:c.capped] {
			cand.score.abandoned.Store(1) // at the cap
		}
		s.rank(cs, now, 3, false) // ONE: blockFor + 2
		assert.Equal(t, c.want, rankIDs(cs), "%d at their cap", c.capped)
	}
}
