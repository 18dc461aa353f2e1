package coordinator

import (
	"time"

	"github.com/readpath/readpath/internal/ctxcause"
)

// callerGrace bounds the wait for the caller's context to report a
// deadline that has passed (see callerEnded): its timer is due when the
// read's is, so a context that keeps its word ends within the runtime's
// timer latency; one that reports a deadline and never ends costs a read
// no more than this.
const callerGrace = 10 * time.Millisecond

// callerEnded returns ctxcause.Err(r.parent) once the caller's context has
// ended, nil if it has not. When the read's deadline, which has passed,
// is the caller's, the read's timer and the context's were due at the same
// instant and fire in either order: it waits for the context's, or the
// caller's cause (WithDeadlineCause) would be lost as often as not.
func (r *read) callerEnded() error {
	if r.parent.Err() != nil {
		return ctxcause.Err(r.parent)
	}
	if d, ok := r.parent.Deadline(); !ok || !d.Equal(r.ctx.deadline) || r.ctx.Err() == nil {
		return nil
	}
	t := time.NewTimer(callerGrace)
	defer t.Stop()
	select {
	case <-r.parent.Done():
		return ctxcause.Err(r.parent)
	case <-t.C:
		return nil
	}
}
