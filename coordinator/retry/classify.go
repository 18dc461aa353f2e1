package retry

import (
	"cmp"
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
	sent      bool // some request (see part) may have reached the target
	stops     bool // some request the drivers rethrow alone (see part.moves)
	// bare and short, over the requests (see part): one holds no write
	// timeout; the write timeout with the fewest acknowledgements, fewer
	// than it needed.
	bare  bool
	short *consistency.WriteTimeoutError
	// more are the write timeouts after wt, in walk order: an error that
	// holds several writes is judged by each (see ask).
	more []*consistency.WriteTimeoutError
	// reqs are the branches of the outermost errors.Join in the chain, each
	// a request ask judges alone; nil for an error that joins nothing.
	reqs []error
}

// part is what an error says of one request: each branch of an
// errors.Join is a request of its own (an attempt that ran two joins
// their errors); the links of a chain, and the branches of any other error
// that wraps several (fmt.Errorf with two %w), say more of the same one.
type part struct {
	safe      bool // a read timeout or an unavailable error
	unsent    bool // ErrNotSent
	aborted   bool // a *RequestAbortedError
	risky     bool // a write timeout, a read or write failure, a lost connection
	closed    bool // ErrConnectionClosed or ErrHeartbeatFailed
	failed    bool // a read or write failure
	transient bool // ErrOverloaded, ErrServerError or ErrTruncate: an answer
	request   bool // a branch of an errors.Join
	split     bool // it joins requests, each judged on its own

	wt *consistency.WriteTimeoutError // the first on it
}

func (p part) or(q part) part {
	return part{safe: p.safe || q.safe, unsent: p.unsent || q.unsent, aborted: p.aborted || q.aborted,
		risky: p.risky || q.risky, closed: p.closed || q.closed, failed: p.failed || q.failed,
		transient: p.transient || q.transient, request: p.request || q.request,
		split: p.split || q.split, wt: cmp.Or(p.wt, q.wt)}
}

// sent reports whether the request of p may have reached the target and
// been applied: p says so (a write timeout, a read or write failure, a
// lost connection, an abort but one not sent), or p is a branch of a join
// that says nothing else (an error response). ErrOverloaded,
// ErrServerError or ErrTruncate over a read timeout, an unavailable error
// or a request not sent is a label, as an adapter's own: it says no more
// of the request than the error it labels.
func (p part) sent() bool {
	return p.risky || (p.aborted && !p.unsent) || (p.request && !(p.safe || p.unsent || p.split))
}

// moves reports whether the drivers' rules, asked of p's request alone as
// an abort or an error response, try the next target: after a lost
// connection or a request not sent, or a transient error response but a
// read or write failure (the Java driver 4's DefaultRetryPolicy).
func (p part) moves() bool {
	if p.aborted || p.unsent || p.closed {
		return p.unsent || p.closed
	}
	return p.transient && !p.failed
}

// classify walks err's own chain (see walk) and classifies it: a timeout or
// an unavailable error first, as the most precise, then an abort, else an
// error response.
func classify(err error) failure {
	var f failure
	f.judge(f.walk(err, part{}))
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
//
// It returns what err says of its request, p (what the errors above err
// said) included; the requests an errors.Join in it joins it judges on
// their own (see part).
func (f *failure) walk(err error, p part) part {
	for err != nil && !isNilPointer(err) {
		p = f.note(err, p)
		switch e := err.(type) {
		case *consistency.ReadFailureError, *consistency.WriteFailureError:
			f.replicas, p.risky, p.failed = true, true, true
			return p
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			branches := e.Unwrap()
			if len(branches) == 0 {
				return p
			}
			if reflect.TypeOf(err) == joinType {
				for _, b := range branches {
					if !p.request {
						f.reqs = append(f.reqs, b)
					}
					q := p
					q.request, q.split = true, false
					f.judge(f.walk(b, q))
				}
				return part{split: true}
			}
			var q part
			for _, b := range branches {
				q = q.or(f.walk(b, p))
			}
			return q
		default:
			return p
		}
	}
	return p
}

// judge notes whether p's request may have been sent, whether the drivers
// would rethrow it, and what its write reached.
func (f *failure) judge(p part) {
	f.sent = f.sent || p.sent()
	f.stops = f.stops || (!p.split && !p.moves())
	switch {
	case p.split:
	case p.wt == nil:
		f.bare = true
	case p.wt.Received < p.wt.BlockFor && (f.short == nil || p.wt.Received < f.short.Received):
		f.short = p.wt
	}
}

// note records what err itself, not what it wraps, says, in f and in p,
// its path's part, and returns p.
func (f *failure) note(err error, p part) part {
	isRT := take(err, &f.rt)
	var wt *consistency.WriteTimeoutError
	isWT := take(err, &wt)
	if isWT && f.wt != nil && wt != f.wt {
		f.more = append(f.more, wt)
	}
	f.wt, p.wt = cmp.Or(f.wt, wt), cmp.Or(p.wt, wt)
	isUn := take(err, &f.un)
	var ab *RequestAbortedError
	aborted := take(err, &ab)
	unsent := is(err, ErrNotSent)
	closed := is(err, ErrConnectionClosed) || is(err, ErrHeartbeatFailed)
	f.aborted = f.aborted || aborted
	f.unsent = f.unsent || unsent
	f.closed = f.closed || closed
	f.lost = f.lost || f.unsent || f.closed
	transient := is(err, ErrOverloaded) || is(err, ErrServerError) || is(err, ErrTruncate)
	f.transient = f.transient || transient
	p.safe = p.safe || isRT || isUn
	p.unsent = p.unsent || unsent
	p.aborted = p.aborted || aborted
	p.risky = p.risky || isWT || closed
	p.closed = p.closed || closed
	p.transient = p.transient || transient
	return p
}

// take reports whether err itself is a non-nil T, itself or through its As
// method, and sets *dst to it if *dst is still unset: errors.As for one
// link of a chain.
func take[T comparable](err error, dst *T) bool {
	var zero T
	t, ok := err.(T)
	if x, as := err.(interface{ As(any) bool }); !ok && as {
		ok = x.As(&t)
	}
	if !ok || t == zero {
		return false
	}
	if *dst == zero {
		*dst = t
	}
	return true
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
