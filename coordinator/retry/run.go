package retry

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/readpath/readpath/internal/ctxcause"
)

// runner executes one statement with a given target and result type.
type runner[T, R any] struct {
	x       execution
	plan    []T
	attempt Attempt[T, R]
}

// sequential runs one attempt at a time on the calling goroutine.
func (r *runner[T, R]) sequential(ctx context.Context) (Result[R], error) {
	var last step
	for a := r.x.first(); ; {
		if err := ctxcause.Err(ctx); err != nil {
			r.x.cancelled(a, err)
			return r.end(last.stopped(err))
		}
		r.x.e.started(a)
		v, err := r.attempt(ctx, r.plan[a.target], a.level)
		if err == nil {
			return r.won(a, v)
		}
		st := r.x.failed(ctx, a, err)
		if st.kind != stepRetry {
			return r.end(st)
		}
		last = st
		_ = sleep(ctx, st.wait) // a context ending the wait is caught above
		a = st.next
	}
}

// run makes attempt a after waiting wait, and recovers a panic, with the
// stack where it happened, so that the executing goroutine can re-raise it.
func (r *runner[T, R]) run(ctx context.Context, a attemptSpec, wait time.Duration) (o outcome[R]) {
	o.a = a
	defer func() {
		if p := recover(); p != nil {
			o.panicked = &AttemptPanicError{Value: p, Stack: debug.Stack()}
		}
	}()
	if err := sleep(ctx, wait); err != nil {
		o.err = err // the executing goroutine refunds a, see cancelled
		return o
	}
	r.x.e.started(a)
	o.ran = true
	o.v, o.err = r.attempt(ctx, r.plan[a.target], a.level)
	return o
}

// won ends the statement with attempt a's success.
func (r *runner[T, R]) won(a attemptSpec, v R) (Result[R], error) {
	r.x.succeeded(a)
	return Result[R]{Value: v, Level: a.level, Requested: r.x.stmt.Level, Attempts: r.x.history}, nil
}

// end ends the statement on a step that is not a retry. The level reported
// is the failed attempt's, or the requested one when no attempt failed.
func (r *runner[T, R]) end(st step) (Result[R], error) {
	res := Result[R]{Level: st.level, Requested: r.x.stmt.Level, Attempts: r.x.history}
	if st.err == nil {
		res.Level = res.Requested
	}
	if st.kind == stepIgnore {
		res.Ignored = true
		return res, nil
	}
	return res, &ExecutionError{Reason: st.reason, Err: st.err, Level: res.Level,
		Requested: res.Requested, Attempts: res.Attempts}
}

// sleep waits for d, or until ctx ends, and returns ctx's error if it has
// ended by then: when the wait and ctx end together, select may pick
// either, and a retry must not start with an ended context.
func sleep(ctx context.Context, d time.Duration) error {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return ctxcause.Err(ctx)
}
