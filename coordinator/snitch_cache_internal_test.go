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
