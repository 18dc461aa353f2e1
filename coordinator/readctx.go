package coordinator

import (
	"context"
	"sync/atomic"
	"time"
)

// readContext is the context a read's requests run under. It is cancelled
// when the read ends, and carries the read's deadline without a timer of
// its own: the read's one timer (see timer.go) cancels it at the deadline,
// with context.DeadlineExceeded as the cause.
type readContext struct {
	context.Context // a cancel context: Done, Value and propagation as usual
	cancel          context.CancelCauseFunc
	deadline        time.Time
	// lateAfter is twice the slowest answer of the read, in nanoseconds,
	// stored as it ends (see cancelRequests), or 0: a request it cancelled
	// after that long unanswered is late by its peers' measure (see
	// score.late).
	lateAfter atomic.Int64
}

// lateAfter returns ctx's readContext's lateAfter, or 0 if it has none.
func lateAfter(ctx context.Context) time.Duration {
	if rc, ok := ctx.(*readContext); ok {
		return time.Duration(rc.lateAfter.Load())
	}
	return 0
}

func newReadContext(parent context.Context, deadline time.Time) *readContext {
	ctx, cancel := context.WithCancelCause(parent)
	return &readContext{Context: ctx, cancel: cancel, deadline: deadline}
}

// Deadline is the read's: the caller's or the read timeout, whichever is
// first.
func (c *readContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Err reports context.DeadlineExceeded once the read's deadline has passed,
// as a deadline context would.
func (c *readContext) Err() error {
	err := c.Context.Err()
	if err == context.Canceled && context.Cause(c.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}

// tick is the request index of a timer tick on a round's channel.
const tick = -1

// cancelRequests cancels every request of the read still running, the
// losers. A read that ended on its own, not at a deadline or by its
// caller, first tells them how long its slowest answer took: a caller
// that gives up sooner than replicas answer says nothing of them.
func (r *read) cancelRequests() {
	if r.slowest > 0 && r.ctx.Err() == nil {
		r.ctx.lateAfter.Store(int64(2 * r.slowest))
	}
	r.ctx.cancel(nil)
}
