package retry

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/readpath/readpath/internal/ctxcause"
)

// outcome is what an attempt started by speculative came to.
type outcome[R any] struct {
	a        attemptSpec
	v        R
	err      error
	ran      bool               // false when the context ended during the backoff
	panicked *AttemptPanicError // the attempt's panic, re-raised by Execute
	goexit   bool               // the attempt called runtime.Goexit, which Execute's caller calls too
}

// schedule times the speculative attempts: each is due delay after the one
// before it started.
type schedule struct {
	timer *time.Timer
	delay time.Duration
}

// speculative runs the statement's attempts on goroutines, and starts
// speculative attempts on the next targets, delay apart, while none has
// succeeded. The first success wins; the statement fails when every attempt
// has, or at once when ctx ends. Losers are cancelled, and waited for.
func (r *runner[T, R]) speculative(ctx context.Context, delay time.Duration) (Result[R], error) {
	if err := ctxcause.Err(ctx); err != nil {
		return r.end(step{}.stopped(err))
	}
	// A chain (the first attempt or a speculative one, then its retries)
	// runs one attempt at a time, and each chain starts on a target of its
	// own: with a slot per chain, sends never block, even once nobody
	// receives.
	out := make(chan outcome[R], r.x.chains())
	actx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait(); r.refundUnstarted(out) }()
	launch := func(a attemptSpec, wait time.Duration) {
		wg.Go(func() {
			// Sent even if the attempt ends its goroutine (runtime.Goexit),
			// which no recover sees: the loop would wait for it forever.
			o := outcome[R]{a: a, ran: true, goexit: true}
			defer func() { out <- o }()
			o = r.run(actx, a, wait)
		})
	}
	sc := &schedule{timer: time.NewTimer(delay), delay: delay}
	defer sc.timer.Stop()
	o, st, won := r.loop(ctx, out, sc, launch)
	if ctx.Err() == nil {
		cancel() // the losers; once ctx has ended, its own error reaches them, as in the sequential path
	}
	wg.Wait()
	var ended error // the context's, when it ended the statement: drain records what was running
	if !won && ctx.Err() != nil && !r.cancelledLosers(st) {
		ended = ctxcause.Err(ctx)
	}
	st, late, lateWon := r.drain(out, st, ended)
	switch {
	case won:
		return r.won(o.a, o.v)
	case lateWon: // it ignored the context and succeeded: a success, as in the sequential path
		return r.won(late.a, late.v)
	}
	return r.end(st)
}

// cancelledLosers reports whether st, which ended the statement, had the
// executor cancel the attempts still running: an Ignore or a panicking
// policy. Any other end once ctx has ended leaves them ctx's error, and
// drain records them: the context ended the statement, whatever step the
// failure judged as it ended took (a Rethrow waits for the attempts
// running, and so did not end it; a late success among them wins, as in
// the sequential path). Only a stop for ctx's error was recorded so: a
// Rethrow decided as ctx ended lost the attempts in flight, a success
// among them.
func (r *runner[T, R]) cancelledLosers(st step) bool {
	_, policyPanicked := st.reason.(*PolicyPanicError)
	return st.kind == stepIgnore || policyPanicked
}

// drain takes the outcomes of the attempts that were still running when the
// statement ended, all returned by now. It re-raises a panic among them,
// since a loser may panic once cancelled; and when the statement failed
// (the context ended it), it records each attempt that ran, with the error
// it returned, so that the ExecutionError carries every attempt made, as in
// the sequential path, and returns st with the last of their failures, and
// the first of them that succeeded after all, which wins the statement:
// those that finished after it lost to it. Attempts that lost to a winner,
// an Ignore or a panicking policy were cancelled by the executor, and are
// not recorded. ended is the context's error that ended the statement, the
// Reason of the attempts recorded and then of the statement, or nil when
// they are not recorded.
func (r *runner[T, R]) drain(out <-chan outcome[R], st step, ended error) (step, outcome[R], bool) {
	record := ended != nil
	var late outcome[R]
	var won bool
	for {
		select {
		case o := <-out:
			switch {
			case o.panicked != nil:
				panic(o.panicked)
			case o.goexit:
				runtime.Goexit()
			case !o.ran:
				r.x.cancelled(o.a, o.err)
			case won: // it finished after the late winner, and lost to it
			case record && o.err == nil:
				late, won = o, true
			case record:
				st = r.x.interrupted(o.a, o.err, st.stopped(ended))
			}
		default:
			return st, late, won
		}
	}
}

// refundUnstarted gives back the budget tokens of the attempts left in out
// that never started: none once drain has run, but a panic (an attempt's,
// re-raised, or an observer's) ends the statement before it, and retries
// waiting out their backoff would keep tokens they never spent.
func (r *runner[T, R]) refundUnstarted(out <-chan outcome[R]) {
	for {
		select {
		case o := <-out:
			if !o.ran {
				r.x.e.unstarted(o.a)
			}
		default:
			return
		}
	}
}

// loop is speculative's event loop. It returns the winning outcome and true,
// or the step that ended the statement.
func (r *runner[T, R]) loop(ctx context.Context, out <-chan outcome[R], sc *schedule,
	launch func(attemptSpec, time.Duration)) (outcome[R], step, bool) {
	launch(r.x.first(), 0)
	last := step{}.stopped(ErrRethrown) // replaced by the first failure
	due := sc.timer.C
	for inflight := 1; inflight > 0; {
		select {
		case o := <-out:
			inflight--
			st, done := r.settle(ctx, o, last)
			if done {
				return o, st, o.err == nil
			}
			last = st // the latest failure, reported if ctx ends the statement
			if st.kind == stepRetry {
				launch(st.next, st.wait)
				inflight++
			}
		case <-due:
			var started bool
			started, due = r.speculateDue(sc, launch)
			if started {
				inflight++
			}
		case <-ctx.Done():
			return outcome[R]{}, last.stopped(ctxcause.Err(ctx)), false
		}
	}
	return outcome[R]{}, last, false
}

// speculateDue starts the speculative attempt that is due, if the statement
// may make it, and returns whether it did and the channel on which the next
// one falls due: nil when none will, such as after the budget refused one.
func (r *runner[T, R]) speculateDue(sc *schedule, launch func(attemptSpec, time.Duration)) (bool, <-chan time.Time) {
	a, ok := r.x.speculate()
	if !ok {
		return false, nil
	}
	launch(a, 0)
	if !r.x.speculatesAgain(time.Now(), sc.delay) {
		return true, nil
	}
	sc.timer.Reset(sc.delay)
	return true, sc.timer.C
}

// settle judges outcome o, and reports whether it ends the statement.
func (r *runner[T, R]) settle(ctx context.Context, o outcome[R], last step) (step, bool) {
	switch {
	case o.panicked != nil:
		panic(o.panicked)
	case o.goexit:
		runtime.Goexit() // speculative's deferred calls cancel and wait for the others
	case o.err == nil:
		return step{}, true
	case !o.ran:
		r.x.cancelled(o.a, o.err)
		return last.stopped(ctxcause.Err(ctx)), true
	}
	st := r.x.failed(ctx, o.a, o.err)
	if err := ctxcause.Err(ctx); err != nil && st.kind == stepRetry {
		// ctx ended while the retry was being decided: end as the
		// sequential path does, with the context's error as the reason.
		r.x.cancelled(st.next, err)
		return st.stopped(err), true
	}
	_, policyPanicked := st.reason.(*PolicyPanicError) // a bug: end at once, as the Java driver
	return st, st.kind == stepIgnore || ctx.Err() != nil || policyPanicked
}
