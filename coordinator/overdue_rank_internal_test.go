package coordinator

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A read that claims the probe of a replica with requests out asks it
// first, as it asks any other it probes: weighed by its requests out, a
// replica with one stuck ranked behind the others even as it was probed,
// and was never asked again (found by review).
func TestAClaimedProbeIsAskedFirstWithRequestsOut(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Second})
	t0 := int64(1e12)
	stuck := rankCandidate("stuck", "r1", 1e6, 1, t0)
	stuck.score.inflight.Store(3)
	a := rankCandidate("a", "r2", 1e6, 0, t0)
	b := rankCandidate("b", "r3", 1e6, 0, t0)
	cs := []candidate{a, b, stuck}
	probe := t0 + int64(time.Second) + 1
	a.score.updated.Store(probe)
	b.score.updated.Store(probe)
	require.True(t, s.rank(cs, probe, 1, true), "the read claims stuck's probe")
	assert.Equal(t, []string{"stuck", "a", "b"}, rankIDs(cs))
}

// A request overdue on a replica (given up at its read's deadline, not
// returned from) ranks it as missing until the replica answers a request
// sent after it; one that answers later ones is not missing, though the
// overdue request is still out.
func TestOverdueCountsUntilALaterRequestAnswers(t *testing.T) {
	start := time.Now()
	sc := new(score)
	answer := func(sent, took time.Duration) {
		sc.sent()
		sc.ended(took, start.Add(sent+took), nil, false, false)
	}
	answer(0, time.Millisecond)
	sc.countOverdue(start.Add(10 * time.Millisecond))
	assert.Equal(t, int64(1), sc.missing(), "overdue, nothing sent since answered")
	answer(5*time.Millisecond, 20*time.Millisecond) // sent before it, answered after
	assert.Equal(t, int64(1), sc.missing(), "an answer to an earlier request clears nothing")
	answer(12*time.Millisecond, time.Millisecond)
	assert.Zero(t, sc.missing(), "it answered a request sent after the overdue one")
	sc.countOverdue(start.Add(20 * time.Millisecond))
	assert.Equal(t, int64(2), sc.missing(), "a newer overdue request: both count")
}

// A request that ends without an answer after the replica answered a
// request sent after it is a miss in Metrics, not in ranking: the replica
// answered since it was sent. One sent after the latest answered request
// is a miss in both.
func TestAMissOfAnEarlierRequestIsNoMissForRanking(t *testing.T) {
	start := time.Now()
	sc := new(score)
	end := func(sent, took time.Duration, err error) {
		sc.sent()
		sc.ended(took, start.Add(sent+took), err, false, false)
	}
	end(0, time.Millisecond, nil)
	end(5*time.Millisecond, time.Millisecond, nil)
	end(2*time.Millisecond, time.Second, errors.New("connection reset")) // sent before the second answer
	assert.Zero(t, sc.missing())
	assert.Equal(t, int64(1), sc.missAll.Load())
	end(10*time.Millisecond, time.Second, errors.New("connection reset"))
	assert.Equal(t, int64(1), sc.missing())
	assert.Equal(t, int64(2), sc.missAll.Load())
}
