package coordinator

import "errors"

// errGoexit is the PanicError value of a replica whose Read or Apply
// called runtime.Goexit.
var errGoexit = errors.New("runtime.Goexit called")

// abandonedBy, deferred by a worker, finishes the job *k that its
// goroutine is leaving unfinished: an embedder's code called
// runtime.Goexit on it (t.FailNow in a test's Outcomes or replica), which
// recover does not see. Before, the answer was lost with the goroutine,
// and the read waited for it until its deadline. A *k of nil means the
// worker returned. Nothing replaces the goroutine: it was busy, not in
// an idle stack, and the pool starts a worker when a stack runs empty.
//
// Only the library's own steps run here, never the embedder's hooks,
// which could end this goroutine again: a replica that called Goexit
// fails as one that panicked, but Outcomes is not told of it.
func abandonedBy(k **call) {
	if *k == nil {
		return
	}
	(*k).finishAbandoned()
	(*k).dropByWorker()
}

// finishAbandoned hands k's answer to its read, after a Goexit in the
// replica (the answer is then a failure) or in Outcomes.
func (k *call) finishAbandoned() {
	if !k.returned.Load() {
		k.err = &PanicError{Endpoint: k.cand.ep, Value: errGoexit}
		k.returned.Store(true)
		k.at = k.now()
		if !k.mutation {
			k.cand.score.ended(k.seq, k.at.Sub(k.sent), k.at, k.err, false, false, 0)
			k.markScored()
		}
	}
	k.deliver()
}
