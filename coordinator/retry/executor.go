package retry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/readpath/readpath/consistency"
)

// Executor runs statements with retries: see Execute. The zero Executor is
// ready to use with the zero Config. An Executor is safe for concurrent use
// and must not be copied after first use.
type Executor struct {
	cfg    Config
	m      counters
	randMu sync.Mutex // serializes cfg.ExponentialBackoff.Rand
}

// NewExecutor returns an executor or, if cfg is invalid, an error matching
// ErrInvalidConfig that holds a *ConfigError (errors.As finds it: an
// invalid Budget's is wrapped).
func NewExecutor(cfg Config) (*Executor, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Executor{cfg: cfg}, nil
}

// Metrics returns a snapshot of the executor's counters.
func (e *Executor) Metrics() Metrics { return e.m.snapshot() }

// Attempt runs a statement once against target at level, and returns its
// result or error. It must honour ctx: the executor cancels it when another
// attempt has won, and waits for it to return. Errors tell the policies what
// happened: return the consistency package's typed errors, this package's
// sentinels, or a *RequestAbortedError. A panic in an attempt reaches the
// caller of Execute: as it is when the attempt ran on the caller's
// goroutine (a statement that does not speculate); when it ran on a
// goroutine of its own (every attempt of a statement that speculates), as
// an *AttemptPanicError holding the value and the stack of the attempt's
// goroutine, re-raised once every attempt has returned. An attempt that
// calls runtime.Goexit (as testing's FailNow does) ends the caller's
// goroutine either way, once every attempt has returned. It must be safe for
// concurrent use: a statement that speculates runs its attempts at once.
type Attempt[T, R any] func(ctx context.Context, target T, level consistency.Level) (R, error)

// Execute runs statement s against plan, an ordered list of targets (such as
// coordinators), through attempt, and returns the first successful result.
//
// The first attempt goes to plan[0] at s.Level. After a failure:
//   - the caller's context ending stops everything at once;
//   - the idempotence gate rethrows a write timeout, an error response or an
//     aborted request (but one not sent, ErrNotSent) of a statement that is
//     not idempotent, without asking the policy, and so a read timeout, an
//     unavailable error or a request not sent whose own tree also holds a
//     write timeout, a read or write failure, an error response or such an
//     abort (errors.Join of two requests' errors);
//   - otherwise the policy (s.Policy, else the executor's) decides:
//     RetrySame retries on the same target and RetryNext on the next one of
//     the plan, each at the verdict's level, after the backoff, if the plan
//     has a target left, MaxRetries is not reached, the backoff ends before
//     the context's deadline and the budget allows; Ignore ends with success
//     and no value; Rethrow ends with the error.
//
// An idempotent statement may also be executed speculatively (see
// Config.Speculation); attempts then run on their own goroutines, the first
// success wins, a failure ends the statement only when no other attempt is
// still running, retries and speculative attempts share the plan and the
// retry count, and Execute returns only once every attempt has returned.
// A failed statement returns an
// *ExecutionError wrapping the last attempt's error and why execution
// stopped, and a Result with no Value whose Level is the error's. A policy
// that panics fails the statement at once with a *PolicyPanicError as the
// Reason; Execute does not panic. Bad
// arguments return an error wrapping ErrInvalidCall, ErrEmptyPlan or
// ErrInvalidStatement, with no attempt made, and a Result whose Level is
// s.Level.
func Execute[T, R any](ctx context.Context, e *Executor, s Statement, plan []T, attempt Attempt[T, R]) (Result[R], error) {
	if err := checkCall(ctx, e, s, len(plan), attempt == nil); err != nil {
		return Result[R]{Level: s.Level, Requested: s.Level}, err
	}
	seq := runner[T, R]{plan: plan, attempt: attempt}
	e.begin(ctx, &seq.x, s, len(plan))
	if d, ok := seq.x.speculationDelay(); ok {
		spec := &runner[T, R]{x: seq.x, plan: plan, attempt: attempt}
		return spec.speculative(ctx, d)
	}
	return seq.sequential(ctx)
}

func checkCall(ctx context.Context, e *Executor, s Statement, planLen int, nilAttempt bool) error {
	switch {
	case e == nil:
		return fmt.Errorf("%w: nil executor", ErrInvalidCall)
	case ctx == nil:
		return fmt.Errorf("%w: nil context", ErrInvalidCall)
	case nilAttempt:
		return fmt.Errorf("%w: nil attempt function", ErrInvalidCall)
	case planLen == 0:
		return ErrEmptyPlan
	}
	return s.Validate()
}

// begin starts x, the execution of validated statement s within ctx.
func (e *Executor) begin(ctx context.Context, x *execution, s Statement, planLen int) {
	e.m.executions.Add(1)
	if e.cfg.Budget != nil {
		e.cfg.Budget.Deposit(time.Now())
	}
	s.Idempotent = s.Idempotent.Resolve(e.cfg.DefaultIdempotent)
	x.e, x.stmt, x.policy, x.planLen, x.next = e, s, e.policyFor(s), planLen, 1
	x.deadline, x.hasDeadline = ctx.Deadline()
}

// policyFor returns the policy that judges s.
func (e *Executor) policyFor(s Statement) Policy {
	switch {
	case s.Policy != nil:
		return s.Policy
	case e.cfg.Policy != nil:
		return e.cfg.Policy
	}
	return DefaultPolicy{}
}

func (e *Executor) speculativeExecutions() int {
	if e.cfg.SpeculativeExecutions == 0 {
		return DefaultSpeculativeExecutions
	}
	return e.cfg.SpeculativeExecutions
}

func (e *Executor) maxRetries() int {
	if e.cfg.MaxRetries == 0 {
		return DefaultMaxRetries
	}
	return e.cfg.MaxRetries
}

// backoff returns the wait after retries retries.
func (e *Executor) backoff(retries int) time.Duration {
	switch {
	case e.cfg.Backoff != nil:
		return e.cfg.Backoff(retries)
	case e.cfg.ExponentialBackoff.Base > 0:
		return e.cfg.ExponentialBackoff.wait(retries, e.jitter())
	}
	return 0
}

// jitter returns a number drawn uniformly from [0, 1).
func (e *Executor) jitter() float64 {
	src := e.cfg.ExponentialBackoff.Rand
	if src == nil {
		return unit(rand.Uint64())
	}
	e.randMu.Lock()
	defer e.randMu.Unlock()
	return unit(src.Uint64())
}
