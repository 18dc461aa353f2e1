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
	stuck.score.sentAll.Store(3) // three out
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
// sent after it, however soon after: one that answers later ones is not
// missing, though the overdue request is still out. The overdue request's
// own late answer clears it too; answers to requests sent before it clear
// nothing.
func TestOverdueCountsUntilALaterRequestAnswers(t *testing.T) {
	now := time.Now()
	sc := new(score)
	answer := func(seq int64) { sc.ended(seq, time.Millisecond, now, nil, false, false, 0) }
	first, early, stuck, later := sc.sent(), sc.sent(), sc.sent(), sc.sent()
	answer(first)
	sc.countOverdue(stuck, 1)
	assert.Equal(t, int64(1), sc.missing(), "overdue, nothing sent since answered")
	answer(early) // sent before it, answered after
	assert.Equal(t, int64(1), sc.missing(), "an answer to an earlier request clears nothing")
	answer(later) // within a microsecond of it, say: the order of sending decides
	assert.Zero(t, sc.missing(), "it answered a request sent after the overdue one")

	sentFirst, sentLast := sc.sent(), sc.sent()
	sc.countOverdue(sentLast, 1)
	sc.countOverdue(sentFirst, 1) // counted last: the latest sent decides, not the latest counted
	assert.Equal(t, int64(3), sc.missing())
	answer(sentFirst)
	assert.Equal(t, int64(3), sc.missing(), "answered one sent before the latest overdue")
	answer(sentLast)
	assert.Zero(t, sc.missing(), "the latest overdue request answered, late")
}

// However many requests are overdue, they count as maxMisses at most: the
// steps putBehind multiplies by overflowed past it, and replicas that
// missed were no longer ordered by how often.
func TestOverdueCountsAsMaxMissesAtMost(t *testing.T) {
	sc := new(score)
	for range 1000 {
		sc.countOverdue(sc.sent(), 1)
	}
	assert.Equal(t, int64(maxMisses), sc.missing())
	sc.misses.Store(3)
	assert.Equal(t, int64(maxMisses), sc.missing())
}

// A request that ends without an answer after the replica answered a
// request sent after it is a miss in Metrics, not in ranking: the replica
// answered since it was sent. One sent after the latest answered request
// is a miss in both.
func TestAMissOfAnEarlierRequestIsNoMissForRanking(t *testing.T) {
	now := time.Now()
	sc := new(score)
	reset := errors.New("connection reset")
	first, lost, second := sc.sent(), sc.sent(), sc.sent()
	sc.ended(second, time.Millisecond, now, nil, false, false, 0)
	sc.ended(first, time.Millisecond, now, nil, false, false, 0) // answers end in any order
	sc.ended(lost, time.Second, now, reset, false, false, 0)
	assert.Zero(t, sc.missing())
	assert.Equal(t, int64(1), sc.missAll.Load())
	sc.ended(sc.sent(), time.Second, now, reset, false, false, 0)
	assert.Equal(t, int64(1), sc.missing())
	assert.Equal(t, int64(2), sc.missAll.Load())
}

// An overdue request dates a replica's first miss when it has answered
// none, as a failure's end does, so that the miss expires and a read
// probes it; once the replica has answered, its answer dates its score.
func TestOverdueDatesAFirstMiss(t *testing.T) {
	sc := new(score)
	sc.countOverdue(sc.sent(), 5)
	assert.Equal(t, int64(5), sc.failedAt.Load())
	sc.countOverdue(sc.sent(), 9)
	assert.Equal(t, int64(5), sc.failedAt.Load(), "the first miss's date")

	answered := new(score)
	answered.ended(answered.sent(), time.Millisecond, time.Now(), nil, false, false, 0)
	answered.countOverdue(answered.sent(), 5)
	assert.Zero(t, answered.failedAt.Load(), "its answer dates it")
}
