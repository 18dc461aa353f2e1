package coordinator

import (
	"context"
	"time"
)

// readContext is the context a read's requests run under. It is cancelled
// when the read ends, and carries the read's deadline without a timer of
// its own: the read's one timer (see timer.go) cancels it at the deadline,
// with readDeadline as the cause.
type readContext struct {
	context.Context // a cancel context: Done, Value and propagation as usual
	cancel          context.CancelCauseFunc
	deadline        time.Time
}

func newReadContext(parent context.Context, deadline time.Time) *readContext {
	ctx, cancel := context.WithCancelCause(parent)
	return &readContext{Context: ctx, cancel: cancel, deadline: deadline}
}

// Deadline is the read's: the caller's or the read timeout, whichever is
// first.
func (c *readContext) Deadline() (time.Time, bool) { return c.deadline, true }

// expireBy ends c with readDeadline, as the read's timer does
// when it fires at the deadline, if t is at or past the deadline, and
// reports whether it was. A request that failed then is judged by it
// before the timer has run (see cutShort and accept): whichever runs
// first, the read times out.
func (c *readContext) expireBy(t time.Time) bool {
	if t.Before(c.deadline) {
		return false
	}
	c.cancel(readDeadline)
	return true
}

// outOfTime reports whether the read's context has ended, ending it at its
// deadline if t is past that and the read's timer has not yet run. The
// coordinator's own work within a round (a Liveness view asked for a
// speculation's target, an Observer told of a hedge) may outlast the
// read's time, and a request sent then is given none: it timed out at
// once, and its replica was charged a miss and a timeout.
func (r *read) outOfTime(t time.Time) bool { return r.ctx.Err() != nil || r.ctx.expireBy(t) }

// readDeadline is the cause the read's deadline ends its context with:
// context.DeadlineExceeded to errors.Is, as its text and Timeout say, but
// told apart from a caller that cancels with DeadlineExceeded as the cause
// (errgroup.WithContext passes on a sibling's timeout so), which cancelled
// the read: its requests were told the deadline passed, and the snitch
// counted timeouts, long before it. Only who cancelled can tell them, and
// a field saying so took the read's allocation to a larger size class.
var readDeadline error = deadlineCause{}

type deadlineCause struct{}

func (deadlineCause) Error() string   { return context.DeadlineExceeded.Error() }
func (deadlineCause) Unwrap() error   { return context.DeadlineExceeded }
func (deadlineCause) Timeout() bool   { return true }
func (deadlineCause) Temporary() bool { return true }

// Err reports context.DeadlineExceeded once the read's deadline has passed,
// as a deadline context would.
func (c *readContext) Err() error {
	err := c.Context.Err()
	if err == context.Canceled && context.Cause(c.Context) == readDeadline {
		return context.DeadlineExceeded
	}
	return err
}

// tick is the request index of a timer tick on a round's channel.
const tick = -1

// cancelRequests cancels every request of the read still running, the
// losers. A read that ended on its own, not at a deadline or by its
// caller, first tells them how long its slowest answer took (see
// call.lateAfter): a caller that gives up sooner than replicas answer
// says nothing of them. Told through the calls, which are recycled, not
// the read's context: a field more there took every read's allocation
// from 48 bytes to 64.
func (r *read) cancelRequests() {
	if r.slowest > 0 && r.ctx.Err() == nil {
		for _, k := range r.calls {
			if !k.returned.Load() {
				k.lateAfter.Store(int64(2 * r.slowest))
			}
		}
	}
	r.ctx.cancel(nil)
}
