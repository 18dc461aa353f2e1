package coordinator

import "errors"

// A hook the read calls on its own goroutine may unwind it: a Liveness
// view's panic, which reaches Read's caller, or runtime.Goexit (t.FailNow
// in a test double) in the Liveness view or the Observer, which recover
// does not stop. The counts the read took on its way must still balance.

// errUnwound is the outcome end books for an unwound read: an OtherErrors.
var errUnwound = errors.New("coordinator: read unwound by a hook")

// end, deferred by read, books what an unwound read left unbooked, then
// recycles it. A read unwound while it planned was not counted yet.
func (r *read) end() {
	// The hedge is counted before the Observer is told of it, which an
	// Observer reading Metrics relies on; unwound, the read used nothing.
	r.bookHedge(false)
	if r.hot != nil && !r.finished { // counted by run, once planned
		r.finish(errUnwound)
	}
	r.release()
}
