package retry

import (
	"context"
	"sync"
	"time"
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
		if err := ctx.Err(); err != nil {
			return r.end(last.stopped(err))
		}
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

// outcome is what an attempt started by speculative came to.
type outcome[R any] struct {
	a        attemptSpec
	v        R
	err      error
	ran      bool // false when the context ended during the backoff
	panicked any  // what the attempt panicked with, re-raised by Execute
}

// speculative runs the statement's attempts on goroutines, and starts a
// speculative attempt on the next target after delay if none has succeeded
// by then. The first success wins; the statement fails when every attempt
// has, or at once when ctx ends. Losers are cancelled, and waited for.
func (r *runner[T, R]) speculative(ctx context.Context, delay time.Duration) (Result[R], error) {
	if err := ctx.Err(); err != nil {
		return r.end(step{}.stopped(err))
	}
	actx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	// One attempt at a time per chain (the first, the speculative), so
	// sends never block even once nobody receives.
	out := make(chan outcome[R], 2)
	launch := func(a attemptSpec, wait time.Duration) {
		wg.Go(func() { out <- r.run(actx, a, wait) })
	}
	timer := time.NewTimer(delay)
	defer timer.Stop()
	return r.loop(ctx, out, timer.C, launch)
}

// loop is speculative's event loop.
func (r *runner[T, R]) loop(ctx context.Context, out <-chan outcome[R], spec <-chan time.Time,
	launch func(attemptSpec, time.Duration)) (Result[R], error) {
	launch(r.x.first(), 0)
	last := step{}.stopped(ErrRethrown) // replaced by the first failure
	for inflight := 1; inflight > 0; {
		select {
		case o := <-out:
			inflight--
			st, done := r.settle(ctx, o, last)
			if done {
				return r.finish(o, st)
			}
			if st.kind == stepRetry {
				launch(st.next, st.wait)
				inflight++
				continue
			}
			last = st
		case <-spec:
			spec = nil
			if a, ok := r.x.speculate(); ok {
				launch(a, 0)
				inflight++
			}
		case <-ctx.Done():
			return r.end(last.stopped(ctx.Err()))
		}
	}
	return r.end(last)
}

// settle judges outcome o, and reports whether it ends the statement.
func (r *runner[T, R]) settle(ctx context.Context, o outcome[R], last step) (step, bool) {
	switch {
	case o.panicked != nil:
		panic(o.panicked)
	case o.err == nil:
		return step{}, true
	case !o.ran:
		return last.stopped(ctx.Err()), true
	}
	st := r.x.failed(ctx, o.a, o.err)
	return st, st.kind == stepIgnore || ctx.Err() != nil
}

// finish ends the statement on outcome o: its success, or step st.
func (r *runner[T, R]) finish(o outcome[R], st step) (Result[R], error) {
	if o.err == nil {
		return r.won(o.a, o.v)
	}
	return r.end(st)
}

// run makes attempt a after waiting wait, and recovers a panic so that the
// executing goroutine can re-raise it.
func (r *runner[T, R]) run(ctx context.Context, a attemptSpec, wait time.Duration) (o outcome[R]) {
	o.a = a
	defer func() {
		if p := recover(); p != nil {
			o.panicked = p
		}
	}()
	if err := sleep(ctx, wait); err != nil {
		o.err = err
		return o
	}
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

// sleep waits for d, or until ctx ends and returns its error.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
