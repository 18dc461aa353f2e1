package retry

import (
	"fmt"
	"iter"
	"strings"

	"github.com/readpath/readpath/consistency"
)

// AttemptRecord is one finished attempt of a statement. It is a plain value,
// safe for concurrent reads.
type AttemptRecord struct {
	// Target is the index of the attempt's target in the plan.
	Target int
	// Level is the consistency level the attempt ran at.
	Level consistency.Level
	// Speculative is set for a speculative attempt.
	Speculative bool
	// Err is the attempt's error; nil if it succeeded.
	Err error
	// Cause classifies Err; meaningless when Err is nil (String then says
	// "succeeded").
	Cause Cause
	// Verdict is the policy's verdict on Err; Rethrow when no policy was
	// asked (the idempotence gate, the caller's context or a panicking
	// policy ended the statement; see Reason). Meaningless when Err is nil.
	Verdict Verdict
	// Reason is why no attempt followed this one's failure, as
	// ExecutionError.Reason says it: ErrRethrown after a Rethrow verdict;
	// or why Verdict was not carried out (ErrPlanExhausted,
	// ErrTooManyRetries, ErrBudgetExhausted, ErrBackoffPastDeadline,
	// ErrInvalidVerdict), or not asked for (ErrNotIdempotent, a
	// *PolicyPanicError); or the context's error, when it ended the attempt
	// or its retry's backoff (context.Canceled too when another attempt won
	// meanwhile). Nil when the attempt succeeded, when its failure was
	// ignored, and when its retry started.
	Reason error
}

// String describes the attempt on one line, for logs: "target 1 at QUORUM
// (speculative): succeeded", or for a failure its cause, error, verdict
// and, unless a retry followed or the policy rethrew, Reason: "target 0 at
// QUORUM: UNAVAILABLE (Cannot achieve ...): RETRY_NEXT at QUORUM; stopped:
// retry: retry budget exhausted".
func (r AttemptRecord) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "target %d at %s", r.Target, r.Level)
	if r.Speculative {
		b.WriteString(" (speculative)")
	}
	if r.Err == nil {
		b.WriteString(": succeeded")
		return b.String()
	}
	fmt.Fprintf(&b, ": %s (%v): %s", r.Cause, r.Err, r.Verdict)
	if r.Reason != nil && r.Reason != ErrRethrown {
		fmt.Fprintf(&b, "; stopped: %v", r.Reason)
	}
	return b.String()
}

// inlineAttempts is how many records a History holds without allocating:
// enough for a statement that succeeds at once, the common case. A History
// is copied into every Result, so it is kept small; a statement that failed
// once has allocated (errors, errors.As) anyway.
const inlineAttempts = 1

// History lists a statement's finished attempts in the order they finished.
// Attempts still running when another attempt won, a failure was ignored or
// the policy panicked (cancelled speculative losers) are not in it;
// attempts still running when the context ended the statement are, with
// what they returned, in speculative execution as in sequential. The zero
// History is empty; a History is a value and is not safe for concurrent
// mutation.
type History struct {
	n      int
	inline [inlineAttempts]AttemptRecord
	more   []AttemptRecord
}

// Len returns the number of attempts.
func (h History) Len() int { return h.n }

// At returns attempt i, 0 being the first to finish. It panics if i is out
// of range, like a slice index.
func (h History) At(i int) AttemptRecord {
	if i < 0 || i >= h.n {
		panic("retry: History index out of range")
	}
	if i < inlineAttempts {
		return h.inline[i]
	}
	return h.more[i-inlineAttempts]
}

// All iterates over the attempts in order.
func (h History) All() iter.Seq2[int, AttemptRecord] {
	return func(yield func(int, AttemptRecord) bool) {
		for i := range h.n {
			if !yield(i, h.At(i)) {
				return
			}
		}
	}
}

// setReason sets the Reason of attempt i.
func (h *History) setReason(i int, reason error) {
	if i < inlineAttempts {
		h.inline[i].Reason = reason
	} else {
		h.more[i-inlineAttempts].Reason = reason
	}
}

func (h *History) add(r AttemptRecord) {
	if h.n < inlineAttempts {
		h.inline[h.n] = r
	} else {
		h.more = append(h.more, r)
	}
	h.n++
}
