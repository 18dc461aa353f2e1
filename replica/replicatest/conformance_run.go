package replicatest

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// callGrace is how long a call may take to return after its context ends;
// past it the check fails and leaves the call's goroutine to the replica.
var callGrace = time.Second

// errAbandoned is what the check gets from a call it stopped waiting for.
var errAbandoned = errors.New("replicatest: the replica's call did not return after its context ended")

// abandoned holds the tests (checks) in which a call was abandoned: their
// later calls fail at once, so that a replica that hangs on every call
// fails each check in one grace period instead of wedging the run.
var abandoned sync.Map // testing.TB → struct{}

// run calls f on a goroutine of its own and returns what it returns. If f
// has not returned callGrace after ended is closed (its call's context
// ended), run fails t, naming the call what, and returns errAbandoned: a
// replica that ignores its context and hangs fails the check instead of
// wedging it.
func run[T any](t testing.TB, ended <-chan struct{}, what string, f func() (T, error)) (T, error) {
	var zero T
	if _, ok := abandoned.Load(t); ok {
		return zero, errAbandoned
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned call still ends
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case res := <-done:
		return res.v, res.err
	case <-ended:
	}
	timer := time.NewTimer(callGrace)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.v, res.err
	case <-timer.C:
	}
	t.Errorf("%s did not return %v after its context ended: it must honour ctx; the check abandons it and makes no more calls", what, callGrace)
	if _, loaded := abandoned.LoadOrStore(t, struct{}{}); !loaded {
		t.Cleanup(func() { abandoned.Delete(t) })
	}
	return zero, errAbandoned
}
