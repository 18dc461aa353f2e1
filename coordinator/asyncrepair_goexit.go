package coordinator

// An ASYNC repair worker calls the embedder's Liveness, Outcomes and
// Observer. A panic there is recovered and the worker goes on; a
// runtime.Goexit (t.FailNow in a test's Observer) is not a panic, and
// ended the worker for good: with one worker, no later repair was applied.
// (The replica's Apply runs on a goroutine of its own: see asyncWrite.)

// inHand is what a repair worker holds for resumeWork: the job whose
// replica's liveness it is asking, not yet applied nor dropped. The
// replica's Apply runs on a goroutine of its own (see asyncWrite), and a
// write's outcome is booked before its hooks run (see enterHook), so
// nothing else is left unbooked by a hook.
type inHand struct {
	returned bool // the worker returned: Close
	held     bool
	late     bool // see repairQueue.settle
	job      repairJob
}

func (h *inHand) hold(j repairJob, late bool) { h.job, h.held, h.late = j, true, late }

// release forgets the job: an idle worker holds nothing of a read.
func (h *inHand) release() { *h = inHand{returned: h.returned} }

// resumeWork, deferred by a worker, books its exit if it returned.
// Otherwise a hook ended its goroutine: it counts the job in hand dropped,
// as the Liveness view's panic would have (the Observer is not told), and
// starts a worker in its place, which takes its place in live too. Only
// the library's own steps run here: a hook could end this goroutine again.
func (q *repairQueue) resumeWork(h *inHand) {
	if h.returned {
		q.exit()
		return
	}
	if h.held {
		q.settle(h.job, h.late, endDropped, nil)
	}
	h.release()
	go q.work()
}
