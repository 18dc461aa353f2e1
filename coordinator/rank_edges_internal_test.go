package coordinator

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// rankCandidate is a candidate whose score answered at now with latency
// lat (ns) and has missed misses times since.
func rankCandidate(id, rack string, lat float64, misses int64, now int64) candidate {
	ep := replica.Endpoint{ID: id, Datacenter: "dc1", Rack: rack}
	sc := &score{id: id}
	sc.ep.Store(&ep)
	sc.bits.Store(math.Float64bits(lat))
	sc.updated.Store(now)
	sc.misses.Store(misses)
	return candidate{ep: ep, score: sc}
}

func rankIDs(cs []candidate) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ep.ID
	}
	return ids
}

// With a finite Badness, from none to a huge one, a replica that missed
// goes behind replicas of key 0.
func TestFiniteBadnessPutsAMissedReplicaBehind(t *testing.T) {
	for _, badness := range []float64{-1, 0, 0.1, 1, 1e6} {
		s := newSnitch(SnitchConfig{Badness: badness, ResetInterval: time.Hour})
		now := int64(1e12)
		cs := []candidate{
			rankCandidate("a", "r1", float64(time.Millisecond), 1, now),
			rankCandidate("b", "r2", 0, 0, now),
			rankCandidate("c", "r3", 0, 0, now),
			rankCandidate("d", "r4", 0, 0, now),
			rankCandidate("e", "r5", 0, 0, now),
		}
		s.rank(cs, now, 3, true)
		assert.Equal(t, []string{"b", "c", "d"}, rankIDs(cs)[:3], "badness %v", badness)
	}
}

// More than inlineRank candidates take the heap path and rank like the
// inline one: the k fastest first, in latency order, the rest behind in
// the locator's order. Badness 0 (from a negative one) compares raw keys.
func TestRankPastTheInlineRoom(t *testing.T) {
	for _, n := range []int{inlineRank, inlineRank + 1, 40} {
		for _, k := range []int{1, 3, inlineRank, inlineRank + 2} {
			s := newSnitch(SnitchConfig{Badness: -0.5, ResetInterval: time.Hour})
			now := int64(1e12)
			cs := make([]candidate, n)
			for i := range cs {
				lat := float64((n-i)*7%n+1) * float64(time.Millisecond) // a permutation of 1..n ms
				cs[i] = rankCandidate(fmt.Sprint(i), fmt.Sprint("r", i), lat, 0, now)
			}
			want := slices.Clone(cs)
			slices.SortStableFunc(want, func(a, b candidate) int {
				la, lb := a.score.latency(), b.score.latency()
				switch {
				case la < lb:
					return -1
				case la > lb:
					return 1
				}
				return 0
			})
			kk := min(k, n)
			s.rank(cs, now, k, true)
			require.Equal(t, rankIDs(want[:kk]), rankIDs(cs[:kk]), "n %d k %d", n, k)
			// the rest: the others in the locator's order
			rest := []string{}
			for i := range n {
				id := fmt.Sprint(i)
				if !slices.Contains(rankIDs(cs[:kk]), id) {
					rest = append(rest, id)
				}
			}
			assert.Equal(t, rest, rankIDs(cs[kk:]), "n %d k %d", n, k)
		}
	}
}

// Equal scores (and scores within one Badness bucket) keep the locator's
// order however often they are ranked: no flapping.
func TestEqualScoresKeepTheStaticOrder(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	now := int64(1e12)
	lats := []float64{1.05e6, 1e6, 1.08e6, 1e6, 1.02e6}
	for range 50 {
		cs := make([]candidate, len(lats))
		for i, l := range lats {
			cs[i] = rankCandidate(fmt.Sprint(i), fmt.Sprint("r", i), l, 0, now)
		}
		s.rank(cs, now, 3, true)
		assert.Equal(t, []string{"0", "1", "2", "3", "4"}, rankIDs(cs))
	}
}

// A demoted replica whose score is older than ResetInterval is claimed
// by one read only, which ranks it first; a read in the same interval
// keeps it last; once the next interval passes it is probed again.
func TestADemotedReplicaIsProbedOnceAnInterval(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Second})
	t0 := int64(1e12)
	slow := rankCandidate("slow", "r1", 50e6, 0, t0)
	a := rankCandidate("a", "r2", 1e6, 0, t0)
	b := rankCandidate("b", "r3", 1e6, 0, t0)
	order := func(at int64) []string {
		cs := []candidate{slow, a, b}
		for _, c := range cs[1:] {
			c.score.updated.Store(at) // the healthy ones keep answering
		}
		s.rank(cs, at, 3, true)
		return rankIDs(cs)
	}
	assert.Equal(t, []string{"a", "b", "slow"}, order(t0+int64(time.Second)), "not yet expired")
	probe := t0 + int64(time.Second) + 1
	assert.Equal(t, []string{"slow", "a", "b"}, order(probe), "expired: probed")
	assert.Equal(t, []string{"a", "b", "slow"}, order(probe+1), "another read keeps it last")
	assert.True(t, slow.score.reset.Load(), "the probe's answer will replace the score")
	assert.Equal(t, []string{"a", "b", "slow"}, order(probe+int64(time.Second)), "claimed: a full interval from the probe")
	assert.Equal(t, []string{"slow", "a", "b"}, order(probe+int64(time.Second)+1), "the probe went unanswered: probed again")

	// The probe's answer replaces the 50 ms score: the healed replica ranks by it.
	slow.score.sample(time.Millisecond, 0)
	assert.InDelta(t, 1e6, slow.score.latency(), 1)
}

// Rack spread among equal keys: a replica on an unused rack is pulled
// ahead of one of equal key on a used rack, from beyond the k selected
// too, and never ahead of a better key.
func TestRackSpreadAmongTies(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	now := int64(1e12)
	cs := []candidate{
		rankCandidate("a", "r1", 1e6, 0, now),
		rankCandidate("b", "r1", 1e6, 0, now),
		rankCandidate("c", "r1", 1e6, 0, now),
		rankCandidate("fast-r1", "r1", 0.5e6, 0, now), // better bucket, same rack
		rankCandidate("d", "r2", 1e6, 0, now),
	}
	s.rank(cs, now, 3, true)
	// fast-r1 is best alone; then a (r1, used) ties with d (r2): d first.
	assert.Equal(t, []string{"fast-r1", "d", "a"}, rankIDs(cs)[:3])
}

// Zero latency (a replica that answered in no time), NaN-free: an idle
// replica with a zero score ranks with the unmeasured ones, first, and
// one with requests out is weighed as the best.
func TestZeroLatencyRanksFirstUnlessLoaded(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	now := int64(1e12)
	cs := []candidate{
		rankCandidate("a", "r1", 2e6, 0, now),
		rankCandidate("zero", "r2", 0, 0, now),
	}
	s.rank(cs, now, 2, true)
	assert.Equal(t, []string{"zero", "a"}, rankIDs(cs))

	cs[0].score.sentAll.Store(math.MaxInt32) // zero, loaded
	s.rank(cs, now, 2, true)
	assert.Equal(t, []string{"a", "zero"}, rankIDs(cs))
}

// A rack is a rack of its datacenter: in the remote group, which holds
// every other datacenter's replicas, a rack named like a used one in
// another datacenter is not used, and the locator's order among equal
// keys stands (DESIGN's rack spread, as rackOutstanding compares both).
func TestARackOfTheSameNameInAnotherDatacenterIsNotUsed(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	now := int64(1e12)
	at := func(id, dc, rack string) candidate {
		c := rankCandidate(id, rack, 1e6, 0, now)
		c.ep.Datacenter = dc
		c.score.ep.Store(&c.ep)
		return c
	}
	cs := []candidate{at("a", "dc2", "r1"), at("b", "dc3", "r1"), at("c", "dc2", "r2")}
	s.rank(cs, now, 2, true)
	assert.Equal(t, []string{"a", "b", "c"}, rankIDs(cs))
}

// A replica's rank key is its latency times one plus its requests out
// (C3's queue weighing, see weigh): a 1 ms replica with one request out
// weighs 2 ms and goes behind an idle 1.5 ms one.
func TestOneRequestOutDoublesTheRankKey(t *testing.T) {
	s := newSnitch(SnitchConfig{Badness: 0.1, ResetInterval: time.Hour})
	now := int64(1e12)
	cs := []candidate{
		rankCandidate("busy", "r1", 1e6, 0, now),
		rankCandidate("idle", "r2", 1.5e6, 0, now),
	}
	cs[0].score.sent()
	s.rank(cs, now, 2, true)
	assert.Equal(t, []string{"idle", "busy"}, rankIDs(cs))
	assert.Equal(t, 2e6, weigh(1e6, 1e6, 1))
}
