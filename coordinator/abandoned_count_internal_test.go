package coordinator

import (
	"context"
	"testing"

	"github.com/readpath/readpath/replica"
)

// The window of TestAnsweredCallsAreNotCountedAbandoned, step by step: the replica returned, its worker delivered the answer, and the
// read took it and returns (dropByRead) before the worker reaches
// dropByWorker. The replica has returned from the request, yet it counts
// as abandoned, and a request to it at a cap of 1 would be refused.
func TestAnsweredCallIsNotAbandoned(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	ep := replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"}
	k := &call{c: &Coordinator{}, ctx: context.Background(), cand: candidate{ep: ep, score: s.entry(&ep)}}
	k.c.calls.New = func() any { return new(call) }
	k.holders.Store(2)
	k.started.Store(true)  // the worker ran the replica's Read,
	k.returned.Store(true) // which returned, and delivered its answer
	k.dropByRead()         // the read, done with the answer, returns
	abandoned := s.replicaMetrics()[0].Abandoned
	k.dropByWorker()
	if abandoned != 0 {
		t.Fatalf("a call whose replica returned counts as abandoned: Abandoned %d", abandoned)
	}
}

// A call whose replica has not returned when its read lets go of it counts
// as abandoned until it does, whichever of the two drops it last.
func TestUnansweredCallIsAbandonedUntilItReturns(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	ep := replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"}
	k := &call{c: &Coordinator{}, ctx: context.Background(), cand: candidate{ep: ep, score: s.entry(&ep)}}
	k.c.calls.New = func() any { return new(call) }
	k.holders.Store(2)
	k.started.Store(true) // the replica's Read is running
	k.dropByRead()        // the read gives up on it
	if got := s.replicaMetrics()[0].Abandoned; got != 1 {
		t.Fatalf("Abandoned %d, want 1 while the replica runs the request", got)
	}
	k.returned.Store(true)
	k.dropByWorker()
	if got := s.replicaMetrics()[0].Abandoned; got != 0 {
		t.Fatalf("Abandoned %d, want 0 once the replica returned", got)
	}
}
