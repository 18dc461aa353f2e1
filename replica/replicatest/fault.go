package replicatest

import (
	"time"

	"github.com/readpath/readpath/internal/typednil"
)

type faultKind uint8

const (
	healthy faultKind = iota
	down
	unreachable
	ignoresContext
	panics
	errorAfter
)

// Fault is how a replica misbehaves beyond being slow. The zero Fault is a
// healthy replica. Down, Unreachable, Panics and ErrorAfter decide a request
// as it arrives, before any pause window, queue or latency; IgnoresContext
// changes how the request waits. Before any of that, a request whose
// context has already ended fails with the context's error, unless the
// fault is IgnoresContext. A Fault is an immutable value, safe for
// concurrent use.
type Fault struct {
	kind  faultKind
	delay time.Duration
	err   error
}

// Down fails every request at once with ErrDown, as a node that refuses
// connections.
func Down() Fault { return Fault{kind: down} }

// Unreachable never answers: a request waits until its context ends and
// returns the context's error, as a node behind a network partition.
func Unreachable() Fault { return Fault{kind: unreachable} }

// IgnoresContext serves requests normally but does not watch their
// context: a request answers after its pauses, queueing and latency even
// if its context ended long before, and the call returns only then.
func IgnoresContext() Fault { return Fault{kind: ignoresContext} }

// Panics makes every request panic at once with an error wrapping
// ErrInjectedPanic, in the caller's goroutine.
func Panics() Fault { return Fault{kind: panics} }

// ErrorAfter fails every request with err after d (or with the context's
// error if it ends first). A nil err fails with ErrInjected, and so does a
// nil pointer returned as one (a nil *T in an error interface), which no
// one could print. d must not be negative.
func ErrorAfter(d time.Duration, err error) Fault {
	if err == nil || typednil.Holds(err) {
		err = ErrInjected
	}
	return Fault{kind: errorAfter, delay: d, err: err}
}

// IsZero reports whether f is the zero Fault, a healthy replica.
func (f Fault) IsZero() bool { return f.kind == healthy }

// String names the fault: "none", "down", "unreachable", "ignores context",
// "panics" or "error after 5ms: <err>".
func (f Fault) String() string {
	switch f.kind {
	case down:
		return "down"
	case unreachable:
		return "unreachable"
	case ignoresContext:
		return "ignores context"
	case panics:
		return "panics"
	case errorAfter:
		return "error after " + f.delay.String() + ": " + f.err.Error()
	}
	return "none"
}

func (f Fault) validate() error {
	if f.kind == errorAfter {
		return nonNegative("fault "+f.String(), f.delay)
	}
	return nil
}
