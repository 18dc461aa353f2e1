package retry

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/consistency"
)

// Why a statement failed: the Reason of an ExecutionError, matched with
// errors.Is on the error Execute returns. The caller's context ending the
// statement is reported as the context's own error instead.
var (
	// ErrRethrown: the policy rethrew the error.
	ErrRethrown = errors.New("retry: rethrown by the retry policy")
	// ErrNotIdempotent: the idempotence gate rethrew the error without
	// asking the policy, because the statement may have been applied.
	ErrNotIdempotent = errors.New("retry: not retried: the statement is not idempotent")
	// ErrPlanExhausted: the policy asked for the next target, and the plan
	// had none left.
	ErrPlanExhausted = errors.New("retry: no target left in the plan")
	// ErrTooManyRetries: the statement reached Config.MaxRetries.
	ErrTooManyRetries = errors.New("retry: retry limit reached")
	// ErrBudgetExhausted: the retry budget refused the retry.
	ErrBudgetExhausted = errors.New("retry: retry budget exhausted")
	// ErrBackoffPastDeadline: the wait before the retry would have ended at
	// or after the context's deadline, so the retry was not made. The
	// context had not ended: the caller still has the time that remains.
	ErrBackoffPastDeadline = errors.New("retry: the backoff before the retry would pass the deadline")
	// ErrInvalidVerdict: the policy returned an undefined decision or level,
	// or a retry at ANY for a statement that did not ask for ANY (the zero
	// Level: the policy most likely forgot to set it).
	ErrInvalidVerdict = errors.New("retry: invalid verdict from the retry policy")
)

// Errors Execute returns before any attempt for a call it cannot run.
var (
	// ErrEmptyPlan: the plan has no target.
	ErrEmptyPlan = errors.New("retry: empty plan")
	// ErrInvalidCall: a nil executor, context or attempt function.
	ErrInvalidCall = errors.New("retry: invalid call")
)

// Result is a statement's outcome. It is a plain value, owned by the
// caller: safe for concurrent reads.
type Result[R any] struct {
	// Value is the winning attempt's result; the zero R when Ignored or
	// when the statement failed.
	Value R
	// Level is the level the statement was served at: the winning attempt's
	// level; for Ignored, the level the ignored failure shows it reached
	// (for a write timeout, THREE, TWO or ONE by the replicas that
	// acknowledged it, or the attempt's level if as many as it needed did;
	// ANY for none, and for any other failure; of the requests an
	// errors.Join joins, the weakest); when the statement failed,
	// ExecutionError.Level. It differs from Requested when a policy
	// downgraded or ignored a failure, which OnDowngrade is told of.
	Level consistency.Level
	// Requested is the level the statement asked for.
	Requested consistency.Level
	// Ignored is set when a policy judged the last failure harmless (an
	// Ignore verdict): the statement counts as successful, with no Value,
	// at Level.
	Ignored bool
	// Attempts lists the finished attempts.
	Attempts History
}

// Downgraded reports whether the statement was served at a level other than
// the one it asked for, after a downgraded retry or an ignored failure. The
// application may want to re-read or repair the rows it touched. For a
// failed statement it reports whether its last attempt ran at a level
// other than the one asked for (Level is then ExecutionError.Level).
func (r Result[R]) Downgraded() bool { return r.Level != r.Requested }

// ExecutionError is the error Execute returns when a statement fails: why it
// stopped, the error of the last failed attempt, and every attempt made.
// errors.Is matches both Reason and Err, and errors.As reaches through Err:
// a read that timed out matches *consistency.ReadTimeoutError. It is not
// modified once returned: safe for concurrent reads.
type ExecutionError struct {
	// Reason is why execution stopped: ErrRethrown, ErrNotIdempotent,
	// ErrPlanExhausted, ErrTooManyRetries, ErrBudgetExhausted,
	// ErrBackoffPastDeadline, ErrInvalidVerdict, a *PolicyPanicError, or the
	// caller's context.Canceled or context.DeadlineExceeded (an error
	// wrapping it and context.Cause, when the context has a cause of its
	// own).
	Reason error
	// Err is the last failed attempt's error; nil if the context ended the
	// statement before any attempt failed.
	Err error
	// Level is the level of the attempt that failed with Err, or Requested
	// when Err is nil. It differs from Requested after a downgrade.
	Level consistency.Level
	// Requested is the level the statement asked for.
	Requested consistency.Level
	// Attempts lists the finished attempts.
	Attempts History
}

func (e *ExecutionError) Error() string {
	attempts := "attempts"
	if e.Attempts.Len() == 1 {
		attempts = "attempt"
	}
	if e.Err == nil {
		return fmt.Sprintf("%v after %d %s", e.Reason, e.Attempts.Len(), attempts)
	}
	return fmt.Sprintf("%v after %d %s: %v", e.Reason, e.Attempts.Len(), attempts, e.Err)
}

// Unwrap returns Reason and Err.
func (e *ExecutionError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Err}
}
