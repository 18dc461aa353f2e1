package retry

import (
	"errors"

	"github.com/readpath/readpath/internal/enumname"
)

// Cause is the kind of failure, which says which Policy callback judges it.
// It is a plain value, safe for concurrent use.
type Cause uint8

// The causes, one per Policy callback.
const (
	CauseReadTimeout Cause = iota
	CauseWriteTimeout
	CauseUnavailable
	CauseRequestAborted
	CauseErrorResponse

	causeCount = iota
)

// ErrUnknownCause is returned, wrapped, by ParseCause, and by
// Cause.MarshalText for an undefined cause.
var ErrUnknownCause = errors.New("retry: unknown cause")

var causeNames = []string{
	CauseReadTimeout:    "READ_TIMEOUT",
	CauseWriteTimeout:   "WRITE_TIMEOUT",
	CauseUnavailable:    "UNAVAILABLE",
	CauseRequestAborted: "REQUEST_ABORTED",
	CauseErrorResponse:  "ERROR_RESPONSE",
}

// String returns a name such as "READ_TIMEOUT".
func (c Cause) String() string { return enumname.Of(c, causeNames, "Cause") }

// ParseCause parses a name String returns, in any letter case.
func ParseCause(s string) (Cause, error) {
	return enumname.Parse[Cause](s, causeNames, ErrUnknownCause)
}

// MarshalText implements encoding.TextMarshaler with the cause's name, so
// that JSON writes it as "READ_TIMEOUT", not a number. An undefined cause
// is an error wrapping ErrUnknownCause.
func (c Cause) MarshalText() ([]byte, error) {
	return enumname.Marshal(c, causeNames, ErrUnknownCause)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseCause. On
// error c is left unchanged.
func (c *Cause) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(c, b, ParseCause)
}

// Classify returns the cause of a failed attempt's error. It looks at err
// and the errors err wraps (its Unwrap chain, every branch), but not into
// the replicas' errors a *consistency.ReadFailureError or
// *consistency.WriteFailureError lists as its Reasons, which errors.Is and
// errors.As would reach: one replica's closed connection or timeout says
// nothing of what became of the request. Of what it finds, a
// *consistency.ReadTimeoutError, *consistency.WriteTimeoutError or
// *consistency.UnavailableError, in that order, wins; then an aborted
// request (a *RequestAbortedError, ErrConnectionClosed, ErrHeartbeatFailed
// or ErrNotSent, such as coordinator.ErrClosed); anything else, a read or
// write failure included, is an error response. The policy judges each
// request an error joins (errors.Join) by its own cause when one is a
// timeout or an unavailable error (see Policy).
func Classify(err error) Cause { return classify(err).cause }
