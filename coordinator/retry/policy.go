package retry

import "github.com/readpath/readpath/consistency"

// Policy decides, for each failed attempt, whether and how a statement is
// retried. Each callback receives the statement as it was attempted (Level
// is the failed attempt's level, Idempotent is resolved to Idempotent or
// NotIdempotent), the error, and retryCount: the number of retries already
// made for the statement, 0 on the first failure.
//
// retryCount is the statement's retries so far, but for those after a
// request not sent (ErrNotSent), which, as the Java driver's move past a
// node it could not send to, consume none of a policy's allowance.
//
// A policy must be a pure function of its arguments and safe for concurrent
// use; the executor calls it from every goroutine that executes statements.
// The executor's idempotence gate runs first: OnWriteTimeout,
// OnRequestAborted and OnErrorResponse are never called for a statement that
// is not idempotent, save OnRequestAborted for an error whose own chain
// (see Classify) matches ErrNotSent and no lost connection or heartbeat,
// which proves that nothing was applied, and no request it joins
// (errors.Join) may have been sent; nor are OnReadTimeout and
// OnUnavailable for an error whose own chain also holds a write timeout,
// a read or write failure, or an abort other than such a refusal, or that
// joins a request that failed with an error response.
// An error that joins requests (errors.Join) and holds a timeout or an
// unavailable error is judged request by request, each by the callback of
// its own cause as if it were alone, and the strictest verdict holds, in
// any order: a verdict the executor refuses (ErrInvalidVerdict), then
// Rethrow, then a retry (at the stronger level, then RetryNext), then
// Ignore. One that joins only aborts and error responses
// is asked of OnRequestAborted or OnErrorResponse once, whole.
// A policy that matches sentinels with errors.Is should know that it reaches
// into a read or write failure's replica errors. A policy that panics fails
// the statement (see PolicyPanicError).
type Policy interface {
	// OnReadTimeout is called when the coordinator did not hear from enough
	// replicas in time for a read.
	OnReadTimeout(s Statement, err *consistency.ReadTimeoutError, retryCount int) Verdict
	// OnWriteTimeout is called when a write was not acknowledged by enough
	// replicas in time; it may or may not have been applied. For an error
	// that holds several, it is called for each, and the strictest verdict
	// holds (see Policy).
	OnWriteTimeout(s Statement, err *consistency.WriteTimeoutError, retryCount int) Verdict
	// OnUnavailable is called when the coordinator knew too few replicas to
	// be alive and sent nothing.
	OnUnavailable(s Statement, err *consistency.UnavailableError, retryCount int) Verdict
	// OnRequestAborted is called when the request never got an answer: the
	// connection closed or a heartbeat failed (see Classify), and the
	// coordinator may or may not have executed it; or the target refused it
	// before it was sent (ErrNotSent), and nothing was executed.
	OnRequestAborted(s Statement, err error, retryCount int) Verdict
	// OnErrorResponse is called for every other error, such as ErrOverloaded
	// or a *consistency.ReadFailureError.
	OnErrorResponse(s Statement, err error, retryCount int) Verdict
}
