package retry

import (
	"fmt"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/typednil"
)

// Defaults of Config fields left zero.
const (
	// DefaultMaxRetries is Config.MaxRetries when left zero.
	DefaultMaxRetries = 8
	// DefaultSpeculativeExecutions is Config.SpeculativeExecutions when left
	// zero.
	DefaultSpeculativeExecutions = 1
)

// Config configures an Executor. The zero Config is valid: DefaultPolicy, no
// backoff, no budget, no speculation, no listeners, and statements not
// idempotent unless they say so. NewExecutor copies it; the functions and the Policy it holds
// must be safe for concurrent use.
type Config struct {
	// Policy judges failed attempts. Default DefaultPolicy. A Statement's
	// own Policy replaces it.
	Policy Policy

	// DefaultIdempotent is the idempotence of a statement left
	// IdempotenceUnset. Default false. Setting it true is dangerous: every
	// unmarked statement becomes retryable after write timeouts, aborted
	// requests and error responses, and speculatively executed, so a
	// counter increment or a lightweight transaction that forgot to say
	// NotIdempotent may be applied twice. Mark idempotent statements
	// one by one instead.
	DefaultIdempotent bool

	// MaxRetries caps the retries of one statement whatever the policy
	// answers, a safety net for policies that never give up (the shipped
	// ones give up by themselves). 0 takes DefaultMaxRetries (for no
	// retries, use FallthroughPolicy); must be >= 0.
	MaxRetries int

	// Backoff, if not nil, gives the wait before each retry. Leave it nil
	// to use ExponentialBackoff instead.
	Backoff Backoff

	// ExponentialBackoff is the wait before each retry when Backoff is nil.
	// Its zero value, the default, retries at once. It must be left zero
	// when Backoff is set.
	//
	// Whichever gives it, a wait ends early when the context does, and a
	// retry whose wait would end at or after the context's deadline is not
	// made: the statement ends at once with ErrBackoffPastDeadline, and the
	// caller keeps the time that remains.
	ExponentialBackoff ExponentialBackoff

	// Budget, if not nil, caps retries and speculative attempts: Execute
	// deposits one request per statement and withdraws one per retry or
	// speculative attempt, and refunds it if the attempt never starts (the
	// context ended during its backoff). A refused retry ends the statement with
	// ErrBudgetExhausted; a refused speculative attempt ends the
	// statement's speculation. Share one Budget with a coordinator's hedges
	// so that retries and hedges draw on one allowance. Each user of a
	// shared Budget deposits its own requests: a statement whose attempts
	// read through a coordinator that deposits into the same Budget counts
	// as a request here and again there.
	Budget *Budget

	// Speculation, if not nil, enables client-side speculative execution
	// of idempotent statements: while no attempt has succeeded, a
	// speculative attempt goes to the next target of the plan after the
	// delay it gives, and another after each further delay, up to
	// SpeculativeExecutions; the first success wins. The delay is read once
	// per statement. A *latency.Threshold fits, for an adaptive delay (feed
	// its tracker from the attempt function), as does FixedDelay. A
	// speculative attempt that would start at or after the context's
	// deadline is not scheduled, and once the budget refuses one, no more
	// follow.
	Speculation SpeculationDelay

	// SpeculativeExecutions is the most speculative attempts a statement
	// makes, besides its first attempt and retries, as gocql's
	// SimpleSpeculativeExecution.NumAttempts (the Java driver 4 counts the
	// first attempt too). Each takes the next unused target, so the plan
	// bounds them too. Default DefaultSpeculativeExecutions; must be >= 0,
	// and left 0 when Speculation is nil.
	SpeculativeExecutions int

	// OnDowngrade, if not nil, is told of every attempt about to run at a
	// level other than the statement's (before its backoff, as OnRetry),
	// and of every Ignore verdict that leaves the statement at a level
	// other than its own (Downgrade.Ignored), so that the application can
	// log it, or re-read or repair the rows later. It runs on the goroutine
	// that called Execute; it must be quick and safe for concurrent use.
	OnDowngrade func(Downgrade)

	// OnRetry, if not nil, is told of every retry about to run, once
	// nothing can stop it but the context: after the policy, MaxRetries,
	// the plan, the deadline and the budget allowed it, after OnDowngrade,
	// and before the backoff. Speculative attempts are not retries. A retry
	// whose backoff the context (or another attempt's success) cuts short
	// never starts: OnRetry has heard of it, but Metrics do not count it,
	// its budget token is refunded, and Result.Attempts has no record of
	// it. It runs
	// synchronously on the goroutine that called Execute, which waits for
	// it before the backoff and, in speculative execution, before it
	// notices any other attempt finishing: it must not block. It must be
	// safe for concurrent use. A panic in it reaches the caller of Execute
	// as it was raised (the budget tokens of retries not run go back).
	OnRetry func(RetryEvent)
}

// Backoff returns the wait before a retry, given the number of retries the
// statement already made (0 before the first retry). A wait <= 0 means
// none. It must be safe for concurrent use.
type Backoff func(retries int) time.Duration

// SpeculationDelay gives the delay after which a statement is executed
// speculatively, and whether to speculate at all, at now.
// *latency.Threshold implements it. Implementations must be safe for
// concurrent use.
type SpeculationDelay interface {
	Load(now time.Time) (d time.Duration, speculate bool)
}

// FixedDelay is a SpeculationDelay that always speculates after the same
// delay. It must not be negative. It is safe for concurrent use.
type FixedDelay time.Duration

// Load returns d and true.
func (d FixedDelay) Load(time.Time) (time.Duration, bool) { return time.Duration(d), true }

// Downgrade describes an attempt about to run at a level other than the
// statement's, or an ignored failure that leaves the statement at such a
// level. It is a plain value, safe for concurrent reads.
type Downgrade struct {
	Requested consistency.Level // the statement's level
	From      consistency.Level // the level of the attempt that failed
	// To is the level of the attempt about to run; when Ignored, the level
	// the statement was left at, as Result.Level says.
	To     consistency.Level
	Cause  Cause // of the failure that led to it
	Target int   // index in the plan of the attempt's target (when Ignored, of the failed one)
	Retry  int   // 1 for the statement's first retry; when Ignored, the retries made
	// Ignored is set when no attempt follows: the policy ignored the
	// failure (Ignore), and the statement succeeds at To, weaker than asked.
	Ignored bool
}

func (cfg Config) validate() error {
	if cfg.MaxRetries < 0 {
		return &ConfigError{"Config.MaxRetries", cfg.MaxRetries, "must be >= 0"}
	}
	if err := cfg.validateImplementations(); err != nil {
		return err
	}
	if err := cfg.validateSpeculation(); err != nil {
		return err
	}
	if cfg.Backoff != nil && cfg.ExponentialBackoff.Base != 0 {
		return &ConfigError{"Config.ExponentialBackoff.Base", cfg.ExponentialBackoff.Base,
			"must be 0 when Config.Backoff is set"}
	}
	return cfg.ExponentialBackoff.validate()
}

// validateImplementations refuses a Policy, Speculation or jitter source
// that is a nil pointer (or func) in its interface, and a Budget not made
// by NewBudget: each would crash the first statement that used it; and a
// Policy whose own Validate fails (a LadderPolicy of no levels, made
// without NewLadderPolicy), which would rethrow every failure.
func (cfg Config) validateImplementations() error {
	for _, f := range []struct {
		field string
		v     any
	}{{"Config.Policy", cfg.Policy}, {"Config.Speculation", cfg.Speculation}, {"Config.ExponentialBackoff.Rand", cfg.ExponentialBackoff.Rand}} {
		if typednil.Holds(f.v) {
			return &ConfigError{f.field, f.v, fmt.Sprintf("a nil %T", f.v)}
		}
	}
	if err := policyError(cfg.Policy); err != nil {
		return fmt.Errorf("%w: %w", &ConfigError{"Config.Policy", cfg.Policy, "fails its Validate"}, err)
	}
	if cfg.Budget != nil {
		if err := cfg.Budget.Validate(); err != nil {
			return fmt.Errorf("Config.Budget: %w", err)
		}
	}
	return nil
}

// policyError returns the error of p's own Validate method, if it has one.
func policyError(p Policy) error {
	if v, ok := p.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

func (cfg Config) validateSpeculation() error {
	switch d, ok := cfg.Speculation.(FixedDelay); {
	case ok && d < 0:
		return &ConfigError{"Config.Speculation", time.Duration(d), "a fixed delay must be >= 0"}
	case cfg.SpeculativeExecutions < 0:
		return &ConfigError{"Config.SpeculativeExecutions", cfg.SpeculativeExecutions, "must be >= 0"}
	case cfg.SpeculativeExecutions != 0 && cfg.Speculation == nil:
		return &ConfigError{"Config.SpeculativeExecutions", cfg.SpeculativeExecutions,
			"must be 0 when Config.Speculation is nil"}
	}
	return nil
}
