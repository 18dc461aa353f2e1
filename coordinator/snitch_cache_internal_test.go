package coordinator

import (
	"strconv"
	"strings"
	"testing"

	"github.com/readpath/readpath/replica"
)

// The cache finds a replica's score by its ID's bytes; an equal ID built
// afresh, whose bytes are elsewhere, finds the same score through the map.
func TestAnEqualIDBuiltAfreshFindsTheSameScore(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	ep := replica.Endpoint{ID: "10.0.0.1:9042", Datacenter: "dc1", Rack: "r1"}
	sc := s.entry(&ep)
	if s.cache.find(ep.ID) != sc {
		t.Fatal("the score is not cached under the ID it was created with")
	}
	fresh := ep
	fresh.ID = strings.Clone(ep.ID)
	if got := s.entry(&fresh); got != sc {
		t.Fatal("an equal ID with other bytes found another score")
	}
	if s.cache.find(fresh.ID) != nil {
		t.Fatal("an ID whose bytes the score does not keep was cached: its bytes may be reused by another ID")
	}
	if sl := s.cache.slot(fresh.ID); sl != s.cache.slot(ep.ID) && sl.Load() != nil {
		t.Fatal("a slot was taken by a score that can never be found there")
	}
}

// Every one of many replicas gets its own score, however their IDs' slots
// collide (256 slots), and keeps it from read to read.
func TestCollidingIDsKeepTheirOwnScores(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	eps := make([]replica.Endpoint, 2000)
	for i := range eps {
		eps[i] = replica.Endpoint{ID: "node-" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strconv.Itoa(i), Datacenter: "dc1"}
	}
	first := make([]*score, len(eps))
	for i := range eps {
		first[i] = s.entry(&eps[i])
		if first[i].id != eps[i].ID {
			t.Fatalf("replica %q got the score of %q", eps[i].ID, first[i].id)
		}
	}
	for i := range eps {
		if got := s.entry(&eps[i]); got != first[i] {
			t.Fatalf("replica %q got another score on its second read", eps[i].ID)
		}
	}
}

// A score forgotten is never found again, even when a read that looked it
// up before ForgetReplica caches it after: the next read starts afresh.
func TestAForgottenScoreIsNotFoundInTheCache(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	ep := replica.Endpoint{ID: "10.0.0.1:9042", Datacenter: "dc1"}
	old := s.entry(&ep)
	old.sent()
	s.forget(ep.ID)
	if s.cache.find(ep.ID) != nil {
		t.Fatal("a forgotten score is still cached")
	}
	s.cache.keep(ep.ID, old) // a read that looked it up just before the forget
	fresh := s.entry(&ep)
	if fresh == old {
		t.Fatal("the forgotten score was found again")
	}
	if s.cache.find(ep.ID) != fresh {
		t.Fatal("the fresh score did not take the forgotten one's slot")
	}
}

// Two IDs may start at the same bytes: "node-1" cut from "node-10". The
// cache takes equal pointers for equal IDs only when the lengths are equal
// too (see scoreCache), so each replica keeps its own score, and
// Metrics().Replicas lists both where they are.
func TestAnIDThatIsAPrefixOfAnotherInTheSameBytesKeepsItsOwnScore(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	long := replica.Endpoint{ID: strings.Clone("node-10"), Datacenter: "dc1", Rack: "r1"}
	short := replica.Endpoint{ID: long.ID[:len("node-1")], Datacenter: "dc1", Rack: "r2"}
	first := s.entry(&long)
	if got := s.entry(&short); got == first || got.id != short.ID {
		t.Fatalf("replica %q got the score of %q", short.ID, got.id)
	}
	if got := s.entry(&long); got != first {
		t.Fatalf("replica %q lost its score to %q", long.ID, short.ID)
	}
	rs := s.replicaMetrics()
	if len(rs) != 2 || rs[0].Endpoint != long || rs[1].Endpoint != short {
		t.Fatalf("replica metrics = %+v, want %q in r1 and %q in r2", rs, long.ID, short.ID)
	}
}
