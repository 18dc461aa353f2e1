package coordinator

import "errors"

// A hook the read calls on its own goroutine may unwind it: a panic of the
// Locator or the Liveness view, which reaches Read's caller, or
// runtime.Goexit (t.FailNow in a test double) in them or in the Observer,
// which recover does not stop. The counts the read took on its way must
// still balance.

// errUnwound is the outcome end books for an unwound read: an OtherErrors.
var errUnwound = errors.New("coordinator: read unwound by a hook")

// end, deferred by read, books what an unwound read left unbooked, then
// recycles it.
func (r *read) end() {
	// A hedge is counted before the Observer is told of it, which an
	// Observer reading Metrics relies on; unwound, the read used none.
	r.bookHedges()
	if !r.finished {
		if r.hot == nil {
			// Unwound while it planned, past the checks that refuse a
			// read uncounted: counted as run counts it, in the table it
			// knew by then.
			r.hot = &r.t.m.hot[r.stripe]
			r.hot.reads[r.req.Level].Add(1)
		}
		r.finish(errUnwound)
	}
	r.release()
}
