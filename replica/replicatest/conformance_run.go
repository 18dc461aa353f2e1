package replicatest

import (
	"errors"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/internal/typednil"
)

// callGrace is how long a call may take to return after its context ends;
// past it the check fails and leaves the call's goroutine to the replica.
var callGrace = time.Second

// errAbandoned is what the check gets from a call it stopped waiting for,
// that timed out (see call), that panicked, or that returned an error whose methods crash (a nil
// pointer), and from every later call of the check.
var errAbandoned = errors.New("replicatest: the check abandoned the replica: a call hung, timed out, panicked or returned an error no one can inspect")

// abandoned holds the tests (checks) in which a call was abandoned or
// panicked: their later calls fail at once, so that a replica that hangs
// on every call fails each check in one grace period instead of wedging
// the run, and one that panicked, perhaps holding a lock, is not called
// again.
var abandoned sync.Map // testing.TB → struct{}

// result is what a call returned, or how it did not.
type result[T any] struct {
	v   T
	err error
	// stack is the stack of a call that panicked (panicked its value) or
	// called runtime.Goexit (t.FailNow on the replica's goroutine, say).
	stack    []byte
	panicked any
	exited   bool
}

// run calls f on a goroutine of its own and returns what it returns. If f
// has not returned callGrace after ended is closed (its call's context
// ended), run fails t, naming the call what, and returns errAbandoned: a
// replica that ignores its context and hangs fails the check instead of
// wedging it. If f panics (or calls runtime.Goexit), run fails t, naming
// the call, the panic's value and the replica's stack, and returns
// errAbandoned: the check fails instead of crashing the test binary. So
// does a call that returns a nil pointer as its error (or an error
// wrapping one, or whose methods panic), which errors.Is would crash on.
func run[T any](t testing.TB, ended <-chan struct{}, what string, f func() (T, error)) (T, error) {
	var zero T
	if _, ok := abandoned.Load(t); ok {
		return zero, errAbandoned
	}
	done := make(chan result[T], 1) // buffered: an abandoned call still ends
	go func() {
		returned := false
		defer func() {
			if returned {
				return
			}
			v := recover() // nil after runtime.Goexit: panic(nil) recovers a *runtime.PanicNilError
			done <- result[T]{stack: debug.Stack(), panicked: v, exited: v == nil}
		}()
		v, err := f()
		returned = true
		done <- result[T]{v: v, err: err}
	}()
	var res result[T]
	select {
	case res = <-done:
	case <-ended:
		timer := time.NewTimer(callGrace)
		defer timer.Stop()
		select {
		case res = <-done:
		case <-timer.C:
			t.Errorf("%s did not return %v after its context ended: it must honour ctx; the check abandons it and makes no more calls", what, callGrace)
			abandon(t)
			return zero, errAbandoned
		}
	}
	switch {
	case res.exited:
		t.Errorf("%s called runtime.Goexit (t.FailNow or t.SkipNow on the replica's goroutine?); the check makes no more calls; the replica's stack:\n%s", what, res.stack)
	case res.stack != nil:
		t.Errorf("%s panicked: %v; the check makes no more calls; the replica's stack:\n%s", what, res.panicked, res.stack)
	case res.err == nil:
		return res.v, nil
	case typednil.Find(res.err) == res.err:
		t.Errorf("%s returned a nil %T as its error: return a nil error, not a nil pointer of an error type, which is no nil error (a coordinator takes it for a failure); the check makes no more calls", what, res.err)
	case typednil.Find(res.err) != nil:
		t.Errorf("%s returned a %T wrapping a nil %T, whose methods crash; the check makes no more calls", what, res.err, typednil.Find(res.err))
	case typednil.Panics(res.err) != nil:
		t.Errorf("%s returned a %T whose methods panic: %v; the check makes no more calls", what, res.err, typednil.Panics(res.err))
	default:
		return res.v, res.err
	}
	abandon(t)
	return zero, errAbandoned
}

// abandon makes t's later calls fail at once.
func abandon(t testing.TB) {
	if _, loaded := abandoned.LoadOrStore(t, struct{}{}); !loaded {
		t.Cleanup(func() { abandoned.Delete(t) })
	}
}
