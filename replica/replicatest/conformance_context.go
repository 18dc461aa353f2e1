package replicatest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// errCause is the cause the context checks end some contexts with: the
// call's error must still wrap the context's error, which
// context.Cause(ctx) then is not.
var errCause = errors.New("replicatest: the caller's cause")

// checkCancelled makes calls under a cancelled context, and under one
// cancelled with a cause (context.WithCancelCause), as a coordinator's
// caller's may be, whose cause the coordinator's request contexts carry.
func checkCancelled(t *testing.T, r replica.Replica) {
	expectContextError(t, r, context.Canceled, func() (context.Context, <-chan struct{}) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		return ctx, ctx.Done()
	})
	expectContextError(t, r, context.Canceled, func() (context.Context, <-chan struct{}) {
		ctx, cancel := context.WithCancelCause(t.Context())
		cancel(errCause)
		return ctx, ctx.Done()
	})
}

// checkDeadline makes calls under a passed deadline, and under one with a
// cause (context.WithDeadlineCause).
func checkDeadline(t *testing.T, r replica.Replica) {
	expectContextError(t, r, context.DeadlineExceeded, func() (context.Context, <-chan struct{}) {
		ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
		t.Cleanup(cancel)
		return ctx, ctx.Done()
	})
	expectContextError(t, r, context.DeadlineExceeded, func() (context.Context, <-chan struct{}) {
		ctx, cancel := context.WithDeadlineCause(t.Context(), time.Now().Add(-time.Second), errCause)
		t.Cleanup(cancel)
		return ctx, ctx.Done()
	})
}

// checkCancelledInFlight cancels each kind of call while it runs: its
// context cancels itself once the replica first looks at it (see
// lookCancelled), after the call started, with no sleep. The call must
// return within callGrace, with an answer or an error wrapping
// context.Canceled. A replica that never looks at its context is not
// cancelled here (its call is bounded by callTimeout); the checks of ended
// contexts catch it.
func checkCancelledInFlight(t *testing.T, r replica.Replica) {
	expectContextError(t, r, nil, func() (context.Context, <-chan struct{}) {
		ctx, cancel := context.WithTimeout(t.Context(), callTimeout)
		t.Cleanup(cancel)
		lc := &lookCancelled{Context: ctx, cancel: cancel}
		return lc, ctx.Done() // not lc.Done: waiting must not count as a look
	})
}

// expectContextError makes every kind of call, each under a context from
// newCtx, which also returns a channel closed once that context has ended.
// A call must fail with an error wrapping want; a nil want is a context
// cancelled in flight, and the call may fail with context.Canceled or
// answer. An answer must be a true one: a read's, what the empty replica
// holds; an Apply's nil, the write made.
func expectContextError(t *testing.T, r replica.Replica, want error, newCtx func() (context.Context, <-chan struct{})) {
	older, _ := versions("k")
	for _, digestOnly := range []bool{false, true} {
		ctx, ended := newCtx()
		cmd := replica.Command{Table: conformanceTable, Key: "k", DigestOnly: digestOnly, DigestVersion: askedVersion(t, r)}
		resp, err := run(t, ended, describe(cmd), func() (replica.Response, error) { return r.Read(ctx, cmd) })
		expectEnded(t, describe(cmd), err, want)
		if want == nil && err == nil {
			checkAnswer(t, cmd, resp, replica.Partition{Key: "k"})
		}
	}
	ctx, ended := newCtx()
	_, err := run(t, ended, `Apply of "k"`, func() (struct{}, error) {
		return struct{}{}, r.Apply(ctx, replica.Mutation{Table: conformanceTable, Partition: older.Clone()})
	})
	expectEnded(t, `Apply of "k"`, err, want)
	if want == nil && err == nil {
		written, _ := repair.Merge(older)
		expectData(t, r, replica.Command{Table: conformanceTable, Key: "k"}, written)
	}
	expectProbeEnded(t, r, want, newCtx)
}

// expectProbeEnded probes a replica.Prober under a context from newCtx:
// as a read, the probe must fail with an error wrapping want, or for a nil
// want (cancelled in flight) answer or fail with context.Canceled; or fail
// with errors.ErrUnsupported, a wrapper's of a replica that is no Prober.
// A failure detector that probes under a timeout must not take a probe it
// gave up on for an answer, nor wait on one that outlives it.
func expectProbeEnded(t *testing.T, r replica.Replica, want error, newCtx func() (context.Context, <-chan struct{})) {
	p, ok := r.(replica.Prober)
	if !ok {
		return
	}
	ctx, ended := newCtx()
	_, err := run(t, ended, "Probe", func() (struct{}, error) { return struct{}{}, p.Probe(ctx) })
	if !errors.Is(err, errors.ErrUnsupported) {
		expectEnded(t, "Probe", err, want)
	}
}

func expectEnded(t *testing.T, what string, err, want error) {
	switch {
	case errors.Is(err, errAbandoned): // run has reported it
	case want == nil && err != nil && !errors.Is(err, context.Canceled):
		t.Errorf("%s, cancelled in flight = %v, want an answer or an error wrapping %v", what, err, context.Canceled)
	case want != nil && !errors.Is(err, want) && errors.Is(err, errCause):
		t.Errorf("%s = %v, want an error wrapping %v: return ctx.Err(), not context.Cause(ctx), which is the caller's cause when it gave one", what, err, want)
	case want != nil && !errors.Is(err, want):
		t.Errorf("%s = %v, want an error wrapping %v", what, err, want)
	}
}

// lookCancelled is a live context that cancels itself the first time it is
// looked at (Deadline, Done, Err or Value), after answering that look: so
// a replica that starts a call, checks its context and goes on is
// cancelled in flight, at a point it reached, without the check guessing
// how long to sleep.
type lookCancelled struct {
	context.Context
	cancel context.CancelFunc
	once   sync.Once
}

func (c *lookCancelled) looked() { c.once.Do(c.cancel) }

func (c *lookCancelled) Deadline() (time.Time, bool) { defer c.looked(); return c.Context.Deadline() }
func (c *lookCancelled) Done() <-chan struct{}       { defer c.looked(); return c.Context.Done() }
func (c *lookCancelled) Err() error                  { defer c.looked(); return c.Context.Err() }
func (c *lookCancelled) Value(key any) any           { defer c.looked(); return c.Context.Value(key) }
