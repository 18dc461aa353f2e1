package coordinator

import (
	"context"
	"fmt"

	"github.com/readpath/readpath/internal/ctxcause"
)

// DrainRepairs waits until no ASYNC repair is queued or being written —
// each applied, failed, dropped or given up on, and counted — or ctx ends,
// and returns ctx's error then (wrapping ctx's cause, if it has one of its
// own, as Read's does). Reads running meanwhile may queue more, so
// it returns at a moment when none was pending, not once reads stop: stop
// sending reads first, for a graceful shutdown that writes the repairs
// Close would drop, then call Close. A repair whose replica ignores its
// context is given up on at most two read timeouts after its write began
// (see Config.MaxAbandonedPerReplica); a repair waits longer only behind a
// Liveness view or a hook (Observer, Outcomes) that does not return, as
// the workers call them. A repair is counted before those hooks are told
// of it, so they may still be told of the last ones after DrainRepairs
// returns. A nil ctx gets an error wrapping ErrInvalidRequest.
func (c *Coordinator) DrainRepairs(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidRequest)
	}
	for {
		idle := c.repairs.idleSignal()
		if idle == nil {
			return nil
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return ctxcause.Err(ctx)
		}
	}
}

// idleSignal returns nil if no job is pending, else a channel closed when
// none is.
func (q *repairQueue) idleSignal() <-chan struct{} {
	q.running.Lock()
	defer q.running.Unlock()
	if q.pending == 0 {
		return nil
	}
	return q.idle
}

// admit counts a job about to be queued as pending.
func (q *repairQueue) admit() {
	q.running.Lock()
	defer q.running.Unlock()
	if q.pending++; q.pending == 1 {
		q.idle = make(chan struct{})
	}
}

// finishing books the end of a pending job.
func (q *repairQueue) finishing() {
	q.running.Lock()
	defer q.running.Unlock()
	q.finished(1)
}

// finished books the end of n pending jobs, for a caller holding running.
func (q *repairQueue) finished(n int) {
	if q.pending -= n; q.pending == 0 && n > 0 {
		close(q.idle)
	}
}
