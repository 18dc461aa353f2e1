package coordinator

import "sync/atomic"

// An ASYNC repair worker calls the embedder's Liveness, Outcomes and
// Observer, and the replica's Apply. A panic there is recovered and the
// worker goes on; a runtime.Goexit (t.FailNow in a test's Observer) is not
// a panic, and ended the worker for good: with one worker, no later repair
// was applied.

// inHand is what a repair worker holds for resumeWork: the job whose
// replica's liveness it is asking, not yet applied nor dropped, or whose
// replica's Apply is running. A write's outcome is booked before its hooks
// run (see enterHook), so nothing else is left unbooked by a hook.
type inHand struct {
	returned bool // the worker returned: Close
	held     bool
	applying bool // in the replica's Apply, begun when late was as given
	late     bool
	job      repairJob
}

func (h *inHand) hold(j repairJob) { h.job, h.held = j, true }

func (h *inHand) holdApplying(j repairJob, late bool) {
	h.job, h.held, h.applying, h.late = j, true, true, late
}

// release forgets the job: an idle worker holds nothing of a read.
func (h *inHand) release() { *h = inHand{returned: h.returned} }

// resumeWork, deferred by a worker, books its exit if it returned.
// Otherwise a hook or the replica ended its goroutine: it counts the job
// in hand dropped, as the Liveness view's panic would have, or failed, as
// Apply's panic would have (neither Outcomes nor the Observer is told),
// and starts a worker in its place, which takes its place in live too.
// Only the library's own steps run here: a hook could end this goroutine
// again.
func (q *repairQueue) resumeWork(h *inHand) {
	if h.returned {
		q.exit()
		return
	}
	switch {
	case h.applying: // the replica's Apply: it failed, as one that panics does
		q.settleApply(h.job, h.late, &PanicError{Endpoint: h.job.s.cand.ep, Value: errGoexit})
	case h.held:
		q.c.countRepairs(h.job.t, 1, func(m *counters) *atomic.Int64 { return &m.repairsDropped })
	}
	h.release()
	go q.work()
}
