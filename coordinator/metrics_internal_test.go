package coordinator

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// Every counter has a field: an array literal with one missing would
// compile and leave a nil.
func TestEveryCounterHasAField(t *testing.T) {
	var tm TableMetrics
	for i, p := range tm.counterFields() {
		if p == nil {
			t.Fatalf("counter %d (%s) has no field", i, counterNames[i])
		}
	}
}

// A replica's Abandoned count is never negative: a worker that ends an
// abandoned call between the read's two atomics in dropByRead takes the
// counter to -1 for an instant.
func TestAbandonedIsNeverNegative(t *testing.T) {
	s := newSnitch(SnitchConfig{})
	ep := replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"}
	k := &call{c: &Coordinator{}, cand: candidate{ep: ep, score: s.entry(&ep)}}
	k.c.calls.New = func() any { return new(call) }
	k.holders.Store(2)
	k.holders.Add(-1) // the read's first half of dropByRead
	k.dropByWorker()  // the worker ends the call in between
	for _, m := range s.replicaMetrics() {
		if m.Abandoned < 0 {
			t.Fatalf("%s: Abandoned %d", m.Endpoint.ID, m.Abandoned)
		}
	}
}
