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
