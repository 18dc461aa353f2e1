package coordinator

import (
	"context"
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
	ticks           chan<- int // where the timer's ticks go: the first round's channel
}

func newReadContext(parent context.Context, deadline time.Time, ticks chan<- int) *readContext {
	ctx, cancel := context.WithCancelCause(parent)
	return &readContext{Context: ctx, cancel: cancel, deadline: deadline, ticks: ticks}
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

// tick is the request index of a timer tick on the first round's channel.
const tick = -1

// fire is the read timer's function: at the deadline it cancels the
// requests; either way it wakes the read. It never blocks: the channel has
// room for every request of the round and maxTicks ticks, so when it is
// full a tick is already waiting there, and the read, woken by that one,
// finds the context cancelled if this was the deadline.
func (c *readContext) fire() {
	if !now().Before(c.deadline) {
		c.cancel(context.DeadlineExceeded)
	}
	select {
	case c.ticks <- tick:
	default:
	}
}
