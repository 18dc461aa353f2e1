package coordinator

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The replicas an additional write may go to are listed closest first
// past those planning ranked too, as a hedge's are (see rankTail): standing
// in for a refused write, it goes to the first of them. At QUORUM over RF
// 9 planning ranks seven; the other two stayed in the locator's order, and
// a write standing in for a third refusal went to the one scored at 100 ms
// though the other scored 2 ms (found by review).
func TestReplicasPastTheRankedOnesAreListedClosestFirst(t *testing.T) {
	c := &Coordinator{snitch: newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})}
	r := &read{readState: readState{c: c, t: &table{}}}
	r.start = time.Now()
	now := snitchClock.Nanos(r.now())
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		r.plan.order = append(r.plan.order, rankCandidate(id, "r1", 1e6, 0, now))
	}
	r.plan.order = append(r.plan.order, rankCandidate("slow", "r2", 100e6, 0, now), rankCandidate("fast", "r3", 2e6, 0, now))
	r.plan.tails = [2]orderSpan{{7, 9}, {9, 9}}

	assert.Equal(t, []string{"a", "b", "c", "d", "e", "f", "g", "fast", "slow"}, rankIDs(r.withoutVersion()))
	assert.Equal(t, orderSpan{}, r.plan.tails[0], "ranked once")
}
