package retry

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/typednil"
)

// failure is a classified error, with the typed error its callback needs.
type failure struct {
	cause     Cause
	rt        *consistency.ReadTimeoutError
	wt        *consistency.WriteTimeoutError
	un        *consistency.UnavailableError
	aborted   bool // a *RequestAbortedError
	lost      bool // ErrConnectionClosed, ErrHeartbeatFailed or ErrNotSent
	unsent    bool // ErrNotSent: the request itself was refused before sending
	closed    bool // ErrConnectionClosed or ErrHeartbeatFailed: a request was sent
	transient bool // ErrOverloaded, ErrServerError or ErrTruncate
	replicas  bool // a *consistency.ReadFailureError or *WriteFailureError
}

// classify walks err's own chain (see walk) and classifies it: a timeout or
// an unavailable error first, as the most precise, then an abort, else an
// error response.
func classify(err error) failure {
	var f failure
	f.walk(err)
	switch {
	case f.rt != nil:
		f.cause = CauseReadTimeout
	case f.wt != nil:
		f.cause = CauseWriteTimeout
	case f.un != nil:
		f.cause = CauseUnavailable
	case f.aborted, f.lost:
		f.cause = CauseRequestAborted
	default:
		f.cause = CauseErrorResponse
	}
	return f
}

// walk notes err and each error it wraps, outermost first, depth first. It
// does not go into the replicas' errors a ReadFailureError or
// WriteFailureError lists: those say why replicas failed, not what became
// of the request, and a replica's ErrNotSent or read timeout must not turn
// a partly applied write into a request never sent, or a failure into a
// timeout. Nor does it call a method of a nil pointer, which would panic.
func (f *failure) walk(err error) {
	for err != nil && !isNilPointer(err) {
		f.note(err)
		switch e := err.(type) {
		case *consistency.ReadFailureError, *consistency.WriteFailureError:
			f.replicas = true
			return
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				f.walk(inner)
			}
			return
		default:
			return
		}
	}
}

// note records what err itself, not what it wraps, says.
func (f *failure) note(err error) {
	take(err, &f.rt)
	take(err, &f.wt)
	take(err, &f.un)
	var ab *RequestAbortedError
	take(err, &ab)
	f.aborted = f.aborted || ab != nil
	f.unsent = f.unsent || is(err, ErrNotSent)
	f.closed = f.closed || is(err, ErrConnectionClosed) || is(err, ErrHeartbeatFailed)
	f.lost = f.lost || f.unsent || f.closed
	f.transient = f.transient || is(err, ErrOverloaded) || is(err, ErrServerError) || is(err, ErrTruncate)
}

// take sets *dst to err if err is a non-nil T, itself or through its As
// method, and *dst is still unset: errors.As for one link of a chain.
func take[T comparable](err error, dst *T) {
	var zero T
	if *dst != zero {
		return
	}
	if t, ok := err.(T); ok {
		*dst = t
		return
	}
	if x, ok := err.(interface{ As(any) bool }); ok {
		var t T
		if x.As(&t) {
			*dst = t
		}
	}
}

// is reports whether err itself is target: errors.Is for one link.
func is(err, target error) bool {
	if err == target {
		return true
	}
	x, ok := err.(interface{ Is(error) bool })
	return ok && x.Is(target)
}

// usable returns err, or for a nil pointer or an error wrapping one, which
// no one could use without a panic (errors.Is would call its methods), an
// error wrapping ErrTypedNil; for an error whose own methods panic
// (typednil.Panics), an error that says so and wraps nothing. An
// errors.Join holding a nil pointer is rebuilt of its branches, each made
// usable, so that the nil replaces only its own branch, and the others
// keep their numbers.
func usable(err error) error {
	if bad := typednil.Find(err); bad != nil {
		if bad != err && reflect.TypeOf(err) == joinType {
			return usableJoin(err.(interface{ Unwrap() []error }).Unwrap())
		}
		return fmt.Errorf("%w: a nil %T", ErrTypedNil, bad)
	}
	if v := typednil.Panics(err); v != nil {
		return fmt.Errorf("retry: a %T whose methods panic: %v", err, v)
	}
	return err
}

// joinType is the type of errors.Join's errors.
var joinType = reflect.TypeOf(errors.Join(errors.ErrUnsupported))

// usableJoin returns the join of branches made usable.
func usableJoin(branches []error) error {
	parts := make([]error, len(branches))
	for i, b := range branches {
		parts[i] = usable(b)
	}
	return errors.Join(parts...)
}

// isNilPointer reports whether err is a nil pointer in an error interface,
// whose methods would dereference nil.
func isNilPointer(err error) bool {
	v := reflect.ValueOf(err)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
