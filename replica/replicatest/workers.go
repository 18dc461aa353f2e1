package replicatest

import (
	"context"
	"math"
)

// workers is a replica's pool of service slots: a channel semaphore, so that
// a request waiting for a slot is durably blocked inside a synctest bubble
// (a mutex would not be). A nil *workers serves everything in parallel.
//
// With a queue limit, places holds a token for every request in service or
// queued, at most the workers plus the limit. A request gives its token
// back when it leaves its slot, in the goroutine that leaves it: a count
// of the queued that a waiter lowered once it ran again still counted,
// when a worker passed on, the request it passed to, and refused a request
// sent at that moment to an empty queue.
type workers struct {
	slots  chan struct{}
	places chan struct{} // nil: no queue limit
}

func newWorkers(n, queueLimit int) *workers {
	if n == 0 {
		return nil
	}
	w := &workers{slots: make(chan struct{}, n)}
	if queueLimit > 0 {
		// The sum saturates: a limit of math.MaxInt overflowed it, and
		// make panicked. Tokens take no memory, so no capacity is too large.
		w.places = make(chan struct{}, n+min(queueLimit, math.MaxInt-n))
	}
	return w
}

// acquire takes a slot, waiting in the queue if none is free. It fails with
// ErrOverloaded when the queue is full, or with the context's error unless
// ignoreCtx is set.
func (w *workers) acquire(ctx context.Context, ignoreCtx bool) error {
	if w == nil {
		return nil
	}
	if w.places != nil {
		select {
		case w.places <- struct{}{}:
		default:
			return ErrOverloaded
		}
	}
	if ignoreCtx {
		w.slots <- struct{}{}
		return nil
	}
	select {
	case w.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		w.leave()
		return ctx.Err()
	}
}

// release frees a slot taken by acquire.
func (w *workers) release() {
	if w != nil {
		<-w.slots
		w.leave()
	}
}

// leave gives back a request's place.
func (w *workers) leave() {
	if w.places != nil {
		<-w.places
	}
}
