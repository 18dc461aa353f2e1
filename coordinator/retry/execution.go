package retry

import (
	"context"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/ctxcause"
)

// execution is the state of one statement's run that does not depend on
// the target and result types: the decisions, the history and the metrics.
type execution struct {
	e       *Executor
	stmt    Statement // idempotence resolved; Level as requested
	policy  Policy
	planLen int
	next    int // the next unused target of the plan
	retries int
	// counted is the retries a policy is told of: those after a request
	// not sent (ErrNotSent) consume none of its allowance, as the Java
	// driver moves past a node it could not send to without counting.
	counted int
	history History

	speculated int // speculative attempts started

	deadline    time.Time // the context's, if hasDeadline
	hasDeadline bool
}

// attemptSpec is an attempt to make.
type attemptSpec struct {
	target      int
	level       consistency.Level
	retry       bool
	speculative bool
	downgraded  bool      // level is not the statement's
	cause       Cause     // retry: of the failure it follows
	token       time.Time // when its budget token was withdrawn; zero for none
	after       int       // retry: 1 + the history index of the failure it follows
}

type stepKind uint8

const (
	stepStop stepKind = iota
	stepRetry
	stepIgnore
)

// step is what follows a failed attempt. The zero step follows no failure.
type step struct {
	kind   stepKind
	next   attemptSpec       // stepRetry: the retry
	wait   time.Duration     // stepRetry: the backoff
	reason error             // stepStop: why
	err    error             // the failed attempt's error
	level  consistency.Level // the failed attempt's level
}

// stop ends the statement for reason after a's failure with err.
func stop(reason error, a attemptSpec, err error) step {
	return step{kind: stepStop, reason: reason, err: err, level: a.level}
}

// stopped returns st turned into a stop for reason, keeping its failure.
func (st step) stopped(reason error) step {
	return step{kind: stepStop, reason: reason, err: st.err, level: st.level}
}

func (x *execution) first() attemptSpec { return attemptSpec{target: 0, level: x.stmt.Level} }

// succeeded records a's success.
func (x *execution) succeeded(a attemptSpec) {
	x.history.add(AttemptRecord{Target: a.target, Level: a.level, Speculative: a.speculative})
	if a.retry {
		x.e.m.retrySuccesses.Add(1)
	}
}

// failed records a's failure with err and decides what follows.
func (x *execution) failed(ctx context.Context, a attemptSpec, err error) step {
	err = usable(err)
	f := classify(err)
	v, reason := x.judge(ctx, a, f, err)
	st := stop(reason, a, err)
	if reason == nil {
		st = x.follow(a, f, v, err)
	}
	if st.kind == stepRetry {
		st.next.after = x.history.Len() + 1
	}
	x.history.add(AttemptRecord{Target: a.target, Level: a.level, Speculative: a.speculative,
		Err: err, Cause: f.cause, Verdict: v, Reason: st.reason})
	return st
}

// cancelled notes that a never started: err, the context's, ended it
// before or during its backoff. Its budget token goes back, and the record
// of the failure it was to retry says why nothing followed.
func (x *execution) cancelled(a attemptSpec, err error) {
	x.e.unstarted(a)
	if a.after > 0 {
		x.history.setReason(a.after-1, err)
	}
}

// interrupted records a's return with err after the context ended the
// statement with st, and returns st with a's failure as the last.
func (x *execution) interrupted(a attemptSpec, err error, st step) step {
	err = usable(err)
	x.history.add(AttemptRecord{Target: a.target, Level: a.level, Speculative: a.speculative,
		Err: err, Cause: classify(err).cause, Verdict: rethrow(), Reason: st.reason})
	return stop(st.reason, a, err)
}

// judge returns the verdict on a failure, or why none is needed: the
// caller's context ended, or the idempotence gate closed; or why there is
// none: the policy panicked.
func (x *execution) judge(ctx context.Context, a attemptSpec, f failure, err error) (Verdict, error) {
	if cerr := ctxcause.Err(ctx); cerr != nil {
		return rethrow(), cerr
	}
	if f.gated() && x.stmt.Idempotent != Idempotent {
		return rethrow(), ErrNotIdempotent
	}
	s := x.stmt
	s.Level = a.level
	return f.ask(x.policy, s, x.stmt.Level, err, x.counted)
}

// follow carries out verdict v on attempt a's failure.
func (x *execution) follow(a attemptSpec, f failure, v Verdict, err error) step {
	switch v.Decision {
	case Rethrow:
		return stop(ErrRethrown, a, err)
	case Ignore:
		return x.ignore(a, f, err)
	case RetrySame:
		return x.retry(attemptSpec{target: a.target, level: v.Level, retry: true}, a, f, v, err)
	case RetryNext:
		return x.retry(attemptSpec{target: x.next, level: v.Level, retry: true}, a, f, v, err)
	}
	return stop(ErrInvalidVerdict, a, err)
}

// retry makes next, the retry of from after err, a failure f, and verdict
// v, if nothing forbids it. Metrics count it once it starts (see started).
func (x *execution) retry(next, from attemptSpec, f failure, v Verdict, err error) step {
	wait, token, reason := x.allow(next)
	if reason != nil {
		return stop(reason, from, err)
	}
	if next.target == x.next {
		x.next++
	}
	x.retries++
	if !f.notSent() {
		x.counted++
	}
	next.cause, next.token, next.downgraded = f.cause, token, next.level != x.stmt.Level
	x.announce(next, from, v, err, wait)
	return step{kind: stepRetry, next: next, wait: wait, err: err, level: from.level}
}

// announce tells OnDowngrade and OnRetry of retry next. If either panics,
// the panic goes on to Execute's caller and next never runs, so its budget
// token goes back first: kept, each such panic would shrink a shared
// budget for good.
func (x *execution) announce(next, from attemptSpec, v Verdict, err error, wait time.Duration) {
	told := false
	defer func() {
		if !told {
			x.e.unstarted(next)
		}
	}()
	x.noteLevel(next, from, next.cause)
	if obs := x.e.cfg.OnRetry; obs != nil {
		obs(RetryEvent{Statement: x.stmt, Retry: x.retries, Err: err, Cause: next.cause, Verdict: v,
			Level: next.level, Target: next.target, Delay: wait})
	}
	told = true
}

// allow returns the wait before retry next and when its budget token was
// withdrawn, or why it may not run. The budget is asked last, so that a
// retry refused for another reason does not spend it.
func (x *execution) allow(next attemptSpec) (time.Duration, time.Time, error) {
	if reason := x.forbid(next); reason != nil {
		return 0, time.Time{}, reason
	}
	wait := max(x.e.backoff(x.retries), 0) // a wait <= 0 is none
	if x.passesDeadline(time.Now(), wait) {
		x.e.m.exhausted.Add(1)
		return 0, time.Time{}, ErrBackoffPastDeadline
	}
	token, ok := x.e.withdraw()
	if !ok {
		return 0, time.Time{}, ErrBudgetExhausted
	}
	return wait, token, nil
}

// forbid returns why retry next may not run whatever its wait, or nil.
func (x *execution) forbid(next attemptSpec) error {
	switch {
	case badLevel(next.level, x.stmt.Level):
		return ErrInvalidVerdict
	case next.target >= x.planLen:
		x.e.m.exhausted.Add(1)
		return ErrPlanExhausted
	case x.retries >= x.e.maxRetries():
		x.e.m.exhausted.Add(1)
		return ErrTooManyRetries
	}
	return nil
}

// badLevel reports whether a retry at l is refused for a statement that
// asked for level requested: l is undefined, or ANY, which only a
// statement at ANY may run at.
func badLevel(l, requested consistency.Level) bool {
	return !l.Valid() || (l == consistency.Any && requested != consistency.Any)
}

// passesDeadline reports whether a wait of d from now would end at or after
// the context's deadline, by which time the context has ended and nothing
// can run.
func (x *execution) passesDeadline(now time.Time, d time.Duration) bool {
	return x.hasDeadline && !now.Add(d).Before(x.deadline)
}

// noteLevel reports next to the observer if it runs at another level than
// the statement asked for.
func (x *execution) noteLevel(next, from attemptSpec, c Cause) {
	if !next.downgraded {
		return
	}
	if obs := x.e.cfg.OnDowngrade; obs != nil {
		obs(Downgrade{Requested: x.stmt.Level, From: from.level, To: next.level,
			Cause: c, Target: next.target, Retry: x.retries})
	}
}

// speculationDelay returns the delay before a speculative attempt, and
// whether this statement speculates at all.
func (x *execution) speculationDelay() (time.Duration, bool) {
	sd := x.e.cfg.Speculation
	if sd == nil || x.stmt.Idempotent != Idempotent || x.planLen < 2 {
		return 0, false
	}
	now := time.Now()
	d, ok := sd.Load(now)
	if !ok || d < 0 || x.passesDeadline(now, d) {
		return 0, false
	}
	return d, true
}

// speculate returns the speculative attempt to start, if the statement may
// make another, a target is left and the budget allows.
func (x *execution) speculate() (attemptSpec, bool) {
	if !x.speculationLeft() {
		return attemptSpec{}, false
	}
	token, ok := x.e.withdraw()
	if !ok {
		return attemptSpec{}, false
	}
	a := attemptSpec{target: x.next, level: x.stmt.Level, speculative: true, token: token}
	x.next++
	x.speculated++
	return a, true
}

// speculatesAgain reports whether another speculative attempt may start
// after d from now: the statement has some left, a target is left, and d
// ends before the deadline. The budget is asked when it is due.
func (x *execution) speculatesAgain(now time.Time, d time.Duration) bool {
	return x.speculationLeft() && !x.passesDeadline(now, d)
}

func (x *execution) speculationLeft() bool {
	return x.speculated < x.e.speculativeExecutions() && x.next < x.planLen
}

// chains returns the most chains of attempts the statement can run at once:
// the first and one per speculative attempt, each starting on a target of
// its own.
func (x *execution) chains() int {
	if n := x.e.speculativeExecutions(); n < x.planLen-1 { // 1+n overflows for n = MaxInt
		return 1 + n
	}
	return x.planLen
}

// gated reports whether f may have left the statement applied, so that
// only an idempotent statement may be retried after it. A request never
// sent applied nothing: the drivers move on from a node they have no
// connection to whatever the statement, and so does the gate. Whatever f's
// cause, a request (see part) that may have been sent (a write timeout, a
// read or write failure, a lost connection or heartbeat, an abort but one
// not sent, an error response) may have been applied too: joined with a
// read timeout or an unavailable error, which Classify prefers, or with a
// request not sent, it was retried, and a statement not idempotent ran
// again.
func (f failure) gated() bool {
	return f.cause == CauseErrorResponse || f.sent
}

// notSent reports whether f is a request refused before it was sent: an
// abort matching ErrNotSent, joined to no request that may have been sent. A timeout whose cause
// matches ErrNotSent (a context cancelled with that cause) was sent, and
// counts, as does an error that joins ErrNotSent to a lost connection or
// heartbeat, an abort sent or an error response.
func (f failure) notSent() bool {
	return f.cause == CauseRequestAborted && f.unsent && !f.sent
}

// ask calls the callback of p that judges f; for several write timeouts,
// OnWriteTimeout for each, and the strictest verdict holds. A timeout or an
// unavailable error that joins requests (errors.Join) gets the strictest of
// the verdicts each of its requests would get alone, each asked of the
// callback of its own cause. A verdict the executor would refuse for a
// statement at level requested (see refused) is the strictest. A panic of p
// is returned as a *PolicyPanicError, with the zero Verdict, Rethrow.
func (f failure) ask(p Policy, s Statement, requested consistency.Level, err error, retries int) (v Verdict, perr error) {
	defer recoverPolicy(&perr)
	if f.reqs != nil && f.cause != CauseRequestAborted && f.cause != CauseErrorResponse {
		return askEach(p, s, requested, f.reqs, retries)
	}
	switch f.cause {
	case CauseReadTimeout:
		return p.OnReadTimeout(s, f.rt, retries), nil
	case CauseWriteTimeout:
		v = p.OnWriteTimeout(s, f.wt, retries)
		for _, wt := range f.more {
			v = stricter(v, p.OnWriteTimeout(s, wt, retries), requested)
		}
		return v, nil
	case CauseUnavailable:
		return p.OnUnavailable(s, f.un, retries), nil
	case CauseRequestAborted:
		return p.OnRequestAborted(s, err, retries), nil
	}
	return p.OnErrorResponse(s, err, retries), nil
}

// askEach returns the strictest of the verdicts p gives each of reqs, the
// requests of a join, asked alone.
func askEach(p Policy, s Statement, requested consistency.Level, reqs []error, retries int) (Verdict, error) {
	var v Verdict
	for i, r := range reqs {
		w, perr := classify(r).ask(p, s, requested, r, retries)
		if perr != nil {
			return rethrow(), perr
		}
		if i == 0 {
			v = w
		}
		v = stricter(v, w, requested)
	}
	return v, nil
}

// stricter returns the stricter of v and w: a verdict the executor refuses
// (see refused), which alone ends the statement with ErrInvalidVerdict and
// must not be hidden by a request's retry; then Rethrow, then a retry, then
// Ignore, which alone ends a write that another request of the statement
// may not have made durable as a success; of two retries, the one at the
// stronger level, which weakens less what the application asked for, then
// RetryNext. The order is total, so that the strictest of several verdicts
// does not depend on the order they come in.
func stricter(v, w Verdict, requested consistency.Level) Verdict {
	if strictness(w, requested) > strictness(v, requested) {
		return w
	}
	return v
}

// strictness orders verdicts for stricter.
func strictness(v Verdict, requested consistency.Level) int {
	r := rank(v.Decision)
	if refused(v, requested) {
		r = 3
	}
	return r<<17 | levelRank(v.Level)<<8 | int(v.Decision)
}

// refused reports whether the executor refuses v for a statement at level
// requested: its decision is undefined, or it retries at a level badLevel
// refuses.
func refused(v Verdict, requested consistency.Level) bool {
	switch v.Decision {
	case Rethrow, Ignore:
		return false
	case RetrySame, RetryNext:
		return badLevel(v.Level, requested)
	}
	return true
}

// rank orders decisions by strictness for stricter.
func rank(d Decision) int {
	switch d {
	case Rethrow:
		return 2
	case Ignore:
		return 0
	}
	return 1
}

// levelRank orders levels, weakest first, for stricter: a level ranks
// below every level it is weaker than (see atMost); THREE, which QUORUM is
// not comparable with, below LOCAL_QUORUM, and the serial levels last.
func levelRank(l consistency.Level) int {
	switch l {
	case consistency.Any:
		return 0
	case consistency.One:
		return 1
	case consistency.LocalOne:
		return 2
	case consistency.Two:
		return 3
	case consistency.Three:
		return 4
	case consistency.LocalQuorum:
		return 5
	case consistency.Quorum:
		return 6
	case consistency.EachQuorum:
		return 7
	case consistency.All:
		return 8
	case consistency.LocalSerial:
		return 9
	case consistency.Serial:
		return 10
	}
	return 11 + int(l)
}
