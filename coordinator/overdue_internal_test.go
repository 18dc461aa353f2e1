package coordinator

import (
	"context"
	"testing"

	"github.com/readpath/readpath/replica"
)

// overdueCall is a read request to a fresh replica's score, sent under a
// context that has reached its deadline, held by its read and its worker.
func overdueCall(t *testing.T, s *snitch, ctx context.Context) *call {
	t.Helper()
	ep := replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"}
	k := &call{c: &Coordinator{}, ctx: ctx, cand: candidate{ep: ep, score: s.entry(&ep)}}
	k.seq = k.cand.score.sent()
	k.c.calls.New = func() any { return new(call) }
	k.holders.Store(2)
	k.started.Store(true)
	return k
}

// A read request given up at its read's deadline counts as a miss in
// ranking while its replica has not returned, and not after, whichever of
// the read and the worker lets go of it last; a request given up before
// the deadline (a cancelled loser) never does.
func TestARequestGivenUpAtTheDeadlineIsOverdueUntilItReturns(t *testing.T) {
	expired, cancel := context.WithCancelCause(context.Background())
	cancel(readDeadline)
	ctx := &readContext{Context: expired, cancel: cancel}
	loser, cancelLoser := context.WithCancel(context.Background())
	cancelLoser()

	s := newSnitch(SnitchConfig{})
	k := overdueCall(t, &s, ctx)
	sc := k.cand.score
	k.dropByRead()
	if sc.overdue.Load() != 1 || !missed(&k.cand) {
		t.Fatalf("overdue %d, missed %v; want 1, true while the replica runs it", sc.overdue.Load(), missed(&k.cand))
	}
	k.returned.Store(true)
	k.dropByWorker()
	if sc.overdue.Load() != 0 || missed(&k.cand) {
		t.Fatalf("overdue %d after the replica returned", sc.overdue.Load())
	}

	k = overdueCall(t, &s, ctx) // the replica returns before the read lets go
	k.returned.Store(true)
	k.markScored()
	k.dropByWorker()
	k.dropByRead()
	if sc.overdue.Load() != 0 {
		t.Fatalf("overdue %d for a request that had returned", sc.overdue.Load())
	}

	// Returned, its answer still being checked: not abandoned (a replica
	// that answered must not be refused for it), but overdue until scored.
	k = overdueCall(t, &s, ctx)
	k.returned.Store(true)
	k.dropByRead()
	if sc.overdue.Load() != 1 || sc.abandoned.Load() != 0 {
		t.Fatalf("returned, unscored: overdue %d, abandoned %d; want 1, 0", sc.overdue.Load(), sc.abandoned.Load())
	}
	k.markScored()
	k.dropByWorker()
	if sc.overdue.Load() != 0 {
		t.Fatalf("overdue %d once scored and let go", sc.overdue.Load())
	}

	k = overdueCall(t, &s, loser)
	k.dropByRead()
	if sc.overdue.Load() != 0 {
		t.Fatalf("overdue %d for a loser cancelled before the deadline", sc.overdue.Load())
	}
	k.returned.Store(true)
	k.dropByWorker()

	k = overdueCall(t, &s, ctx) // a repair write: its replica's misses are for reads
	k.mutation = true
	k.dropByRead()
	if sc.overdue.Load() != 0 || sc.abandoned.Load() != 1 {
		t.Fatalf("a repair write given up at the deadline: overdue %d, abandoned %d; want 0, 1", sc.overdue.Load(), sc.abandoned.Load())
	}
	k.returned.Store(true)
	k.dropByWorker()
}

// However the replica's return and the read's letting go interleave, a
// request leaves nothing overdue or abandoned once both are done: an
// answer just at the deadline must not leave its replica ranked as missing.
func TestOverdueSettlesInEveryInterleaving(t *testing.T) {
	expired, cancel := context.WithCancelCause(context.Background())
	cancel(readDeadline)
	ctx := &readContext{Context: expired, cancel: cancel}
	s := newSnitch(SnitchConfig{})
	for range 20000 {
		k := overdueCall(t, &s, ctx)
		done := make(chan struct{})
		go func() {
			k.returned.Store(true)
			k.markScored()
			k.dropByWorker()
			close(done)
		}()
		k.dropByRead()
		<-done
	}
	sc := s.lookup(&replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"})
	if sc.overdue.Load() != 0 || sc.abandoned.Load() != 0 {
		t.Fatalf("overdue %d, abandoned %d once every request returned", sc.overdue.Load(), sc.abandoned.Load())
	}
}
