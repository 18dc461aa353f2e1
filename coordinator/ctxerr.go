package coordinator

import (
	"context"
	"fmt"
	"time"

	"github.com/readpath/readpath/internal/typednil"
)

// ended is ctx's error, wrapping as well the cause its canceller gave
// (context.WithCancelCause, WithDeadlineCause, WithTimeoutCause), so that
// errors.Is finds both: the caller told its reasons apart by the cause. A
// cause that is or wraps a nil pointer is left out, as errors.Is would call
// its methods on nil.
func ended(ctx context.Context) error {
	err := ctx.Err()
	cause := context.Cause(ctx)
	if err == nil || cause == nil || cause == err || typednil.Find(cause) != nil {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}

// callerGrace bounds the wait for the caller's context to report a
// deadline that has passed (see callerEnded): its timer is due when the
// read's is, so a context that keeps its word ends within the runtime's
// timer latency; one that reports a deadline and never ends costs a read
// no more than this.
const callerGrace = 10 * time.Millisecond

// callerEnded returns ended(r.parent) once the caller's context has
// ended, nil if it has not. When the read's deadline, which has passed,
// is the caller's, the read's timer and the context's were due at the same
// instant and fire in either order: it waits for the context's, or the
// caller's cause (WithDeadlineCause) would be lost as often as not.
func (r *read) callerEnded() error {
	if r.parent.Err() != nil {
		return ended(r.parent)
	}
	if d, ok := r.parent.Deadline(); !ok || !d.Equal(r.ctx.deadline) || r.ctx.Err() == nil {
		return nil
	}
	t := time.NewTimer(callerGrace)
	defer t.Stop()
	select {
	case <-r.parent.Done():
		return ended(r.parent)
	case <-t.C:
		return nil
	}
}
