package replicatest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// recorder is a testing.TB that records the failures reported to it
// instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestRunAbandonsACallThatOutlivesItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{TB: t}
		ended, release := make(chan struct{}), make(chan struct{})
		defer close(release) // the hung call ends before the bubble does
		close(ended)
		start := time.Now()
		_, err := run(rec, ended, `data Read of "k"`, func() (int, error) { <-release; return 1, nil })
		if !errors.Is(err, errAbandoned) || time.Since(start) != callGrace {
			t.Errorf("run of a call that hangs = %v after %v, want errAbandoned after %v", err, time.Since(start), callGrace)
		}
		if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], `data Read of "k" did not return`) {
			t.Errorf("run reported %q, want one failure naming the call", rec.errors)
		}
		called := false
		_, err = run(rec, ended, "Apply", func() (int, error) { called = true; return 1, nil })
		if called || !errors.Is(err, errAbandoned) {
			t.Errorf("after an abandoned call, run called the replica (%v) and returned %v, want no call and errAbandoned", called, err)
		}
	})
}

func TestRunWaitsForACallUntilItsContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{TB: t}
		got, err := run(rec, make(chan struct{}), "Read", func() (int, error) {
			time.Sleep(time.Hour) // its context still live
			return 7, nil
		})
		if got != 7 || err != nil || len(rec.errors) != 0 {
			t.Errorf("run = %d, %v, reporting %q; want the call's 7, nil and no failure", got, err, rec.errors)
		}
	})
}

func TestRunGivesACallItsGraceAfterItsContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{TB: t}
		ended := make(chan struct{})
		got, err := run(rec, ended, "Read", func() (int, error) {
			close(ended)
			time.Sleep(callGrace - time.Millisecond)
			return 7, nil
		})
		if got != 7 || err != nil || len(rec.errors) != 0 {
			t.Errorf("run = %d, %v, reporting %q; want the call's 7, nil and no failure", got, err, rec.errors)
		}
	})
}

func TestRunFailsACallThatPanics(t *testing.T) {
	for name, f := range map[string]func() (int, error){
		"panics":       func() (int, error) { panic("boom") },
		"panics nil":   func() (int, error) { panic(nil) },
		"calls Goexit": func() (int, error) { runtime.Goexit(); return 1, nil },
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{TB: t}
			_, err := run(rec, make(chan struct{}), "Read", f)
			if !errors.Is(err, errAbandoned) || len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "Read ") {
				t.Errorf("run of a call that %s = %v, reporting %q; want errAbandoned and one failure naming the call", name, err, rec.errors)
			}
			called := false
			if _, err := run(rec, make(chan struct{}), "Apply", func() (int, error) { called = true; return 1, nil }); called || !errors.Is(err, errAbandoned) {
				t.Errorf("after a call that %s, run called the replica (%v) and returned %v, want no call and errAbandoned", name, called, err)
			}
		})
	}
}

// nilPointerError is an error whose methods read its field.
type nilPointerError struct{ err error }

func (e *nilPointerError) Error() string { return e.err.Error() }
func (e *nilPointerError) Unwrap() error { return e.err }

func TestRunFailsACallThatReturnsANilPointerAsItsError(t *testing.T) {
	var nilErr *nilPointerError
	for name, returned := range map[string]error{
		"a nil pointer":         nilErr,
		"an error wrapping one": fmt.Errorf("rpc: %w", nilErr),
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{TB: t}
			_, err := run(rec, make(chan struct{}), "Read", func() (int, error) { return 1, returned })
			if !errors.Is(err, errAbandoned) || len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "nil *replicatest.nilPointerError") {
				t.Errorf("run of a call that returns %s = %v, reporting %q; want errAbandoned and one failure naming the nil pointer's type", name, err, rec.errors)
			}
		})
	}
}
