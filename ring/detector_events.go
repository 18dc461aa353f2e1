package ring

import "sync"

// eventQueue hands Changes from the goroutines that cause them to the
// detector's goroutine, which calls OnChange: the causes never wait for
// OnChange, and OnChange sees the changes in order.
type eventQueue struct {
	on      bool
	mu      sync.Mutex
	pending []Change
	ready   chan struct{} // holds a token while pending is not empty
}

func newEventQueue(on bool) eventQueue {
	return eventQueue{on: on, ready: make(chan struct{}, 1)}
}

func (q *eventQueue) push(c Change) {
	if !q.on {
		return
	}
	q.mu.Lock()
	q.pending = append(q.pending, c)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *eventQueue) drain() []Change {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.pending
	q.pending = nil
	return out
}
