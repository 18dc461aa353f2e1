package replicatest

import (
	"context"
	"sync/atomic"
)

// workers is a replica's pool of service slots: a channel semaphore, so that
// a request waiting for a slot is durably blocked inside a synctest bubble
// (a mutex would not be). A nil *workers serves everything in parallel.
type workers struct {
	slots   chan struct{}
	waiting atomic.Int64
	limit   int64 // most requests allowed to wait; 0 means no limit
}

func newWorkers(n, queueLimit int) *workers {
	if n == 0 {
		return nil
	}
	return &workers{slots: make(chan struct{}, n), limit: int64(queueLimit)}
}

// acquire takes a slot, waiting in the queue if none is free. It fails with
// ErrOverloaded when the queue is full, or with the context's error unless
// ignoreCtx is set.
func (w *workers) acquire(ctx context.Context, ignoreCtx bool) error {
	if w == nil {
		return nil
	}
	select {
	case w.slots <- struct{}{}:
		return nil
	default:
	}
	if n := w.waiting.Add(1); w.limit > 0 && n > w.limit {
		w.waiting.Add(-1)
		return ErrOverloaded
	}
	defer w.waiting.Add(-1)
	if ignoreCtx {
		w.slots <- struct{}{}
		return nil
	}
	select {
	case w.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release frees a slot taken by acquire.
func (w *workers) release() {
	if w != nil {
		<-w.slots
	}
}
