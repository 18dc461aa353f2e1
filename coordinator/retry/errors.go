package retry

import "errors"

// Errors an attempt function returns to tell the policies what happened.
// Wrap them (fmt.Errorf("...: %w", ErrOverloaded)) to add detail.
var (
	// ErrConnectionClosed: the connection to the target closed before it
	// answered. The request is aborted; DefaultPolicy tries the next target.
	ErrConnectionClosed = errors.New("retry: connection closed")
	// ErrHeartbeatFailed: the connection's heartbeat failed while the
	// request was in flight. The request is aborted; DefaultPolicy tries the
	// next target.
	ErrHeartbeatFailed = errors.New("retry: heartbeat failed")
	// ErrNotSent: the target refused the request before sending anything,
	// as when a driver has no open connection to a node, or a coordinator
	// is closed (coordinator.ErrClosed matches it). Nothing was applied, so
	// unlike the other aborts it passes the idempotence gate: DefaultPolicy
	// tries the next target, whatever the statement's idempotence.
	ErrNotSent = errors.New("retry: request not sent")
	// ErrOverloaded: the target refused the request because it is
	// overloaded (a transport's OVERLOADED response). DefaultPolicy tries
	// the next target. A replica's overload within a read the target ran
	// (replica.ErrOverloaded) is not this: coordinator.Read reports it as
	// a *consistency.ReadFailureError, an error response.
	ErrOverloaded = errors.New("retry: coordinator overloaded")
	// ErrServerError: the target failed with an internal error.
	// DefaultPolicy tries the next target.
	ErrServerError = errors.New("retry: server error")
	// ErrTruncate: a TRUNCATE failed on the target. DefaultPolicy tries the
	// next target.
	ErrTruncate = errors.New("retry: truncate error")
)

// ErrTypedNil stands for an attempt's error that was a nil pointer of an
// error type, such as a nil *consistency.ReadTimeoutError returned as an
// error: a bug of the attempt function, since the pointer's methods would
// dereference nil. The executor records, judges and returns, in its place,
// an error wrapping ErrTypedNil that names the type; it is an error
// response (see Classify). Joined (errors.Join) to other errors, it
// replaces only its own branch of the join: the others keep their numbers.
var ErrTypedNil = errors.New("retry: the attempt returned a nil pointer as its error")

// RequestAbortedError marks any error as an aborted request: one that got
// no answer, so the target may or may not have executed it. It is judged by
// Policy.OnRequestAborted, but one that wraps a read or write timeout or an
// unavailable error is judged by that error's callback, as Classify takes
// those first; either way, only for idempotent statements, unless it
// matches ErrNotSent (the request was never sent) and nothing joined to it
// was sent. Like every error type here, it is not modified once returned
// and is safe for concurrent reads.
type RequestAbortedError struct {
	Err error
}

func (e *RequestAbortedError) Error() string {
	if e.Err == nil {
		return "retry: request aborted"
	}
	return "retry: request aborted: " + e.Err.Error()
}

// Unwrap returns the error that aborted the request.
func (e *RequestAbortedError) Unwrap() error { return e.Err }
