package coordinator

// A hook the read calls on its own goroutine may unwind it: a Liveness
// view's panic, which reaches Read's caller, or runtime.Goexit (t.FailNow
// in a test double) in the Liveness view or the Observer, which recover
// does not stop. The counts the read took on its way must still balance.

// end, deferred by read, books what an unwound read left unbooked, then
// recycles it.
func (r *read) end() {
	// The hedge is counted before the Observer is told of it, which an
	// Observer reading Metrics relies on; unwound, the read used nothing.
	r.bookHedge(false)
	r.release()
}
