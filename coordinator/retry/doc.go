// Package retry decides, for each failed attempt of a statement, whether to
// retry it, where, and at which consistency level, as the Cassandra drivers
// do, and runs statements with those decisions, client-side speculative
// execution and a retry budget.
//
// # Policies
//
// A Policy answers each failure with a Verdict: RetrySame (same target),
// RetryNext (next target), Ignore (count it as success) or Rethrow, and the
// level of the next attempt. Five are shipped:
//
//   - DefaultPolicy: the Java driver 4 default; retries only where a retry
//     has a good chance to succeed: once after a read timeout where enough
//     replicas answered but not the data, a BATCH_LOG write timeout or an
//     unavailable error, on the next target after each lost connection or
//     transient error response.
//   - FallthroughPolicy: never retries.
//   - DowngradingPolicy: the Java driver's consistency-downgrading policy.
//   - LadderPolicy: an explicit list of ever weaker levels, one per retry.
//   - IdempotentOnlyPolicy: one retry on the next target, where safe.
//
// # Running statements
//
// An Executor runs a Statement against a plan of targets through an attempt
// function the caller supplies:
//
//	ex, err := retry.NewExecutor(retry.Config{Budget: budget})
//	res, err := retry.Execute(ctx, ex, retry.Statement{Level: consistency.Quorum,
//		Idempotent: retry.Idempotent}, coordinators, readUser)
//
// It classifies each error (see Classify), applies the idempotence gate,
// then the policy, and honours the verdict, within the plan, MaxRetries, the
// Budget and the context. A failed statement returns an *ExecutionError
// holding the last error, why execution stopped, the level of the attempt
// that failed last, and every attempt.
//
// # Backoff
//
// By default a retry runs at once, as in the Java driver: a read timeout or
// an unavailable coordinator is retried immediately, often on the next
// target. Where many clients may fail together, against an overloaded
// coordinator, set Config.ExponentialBackoff (or Config.Backoff, for a
// schedule of your own): the wait before retry n+1 is drawn uniformly
// ("full jitter") from [0, min(Cap, Base × Multiplier^n)), which spreads
// retries that would otherwise arrive in waves. A retry whose wait would
// end at or after the context's deadline is not made: the statement ends at
// once with ErrBackoffPastDeadline, with the time that remains left to the
// caller. For waits that tests can predict, give the backoff a seeded
// source, such as rand.NewPCG.
//
// # Idempotence, counters and lightweight transactions
//
// A write that timed out, or whose connection dropped, may or may not have
// been applied. Retrying it is safe only if applying it twice is the same as
// applying it once. So the executor gates: for write timeouts, error
// responses and aborted requests, joined to another error or not, a
// statement not marked Idempotent is rethrown without asking the policy,
// and only Idempotent statements are executed speculatively. A request the
// target refused before sending it
// (ErrNotSent; a closed coordinator's coordinator.ErrClosed matches it)
// applied nothing and passes the gate, as the drivers move on from a node
// they have no connection to whatever the statement; unlike them, the
// executor still asks the policy and counts the retry, so that
// FallthroughPolicy, MaxRetries and the Budget bound it. Unmarked statements
// count as not idempotent, unless Config.DefaultIdempotent says otherwise,
// which is dangerous.
//
// Never mark these idempotent:
//   - counter updates: "c = c + 1" applied twice adds 2, and a timed-out
//     increment may well have been applied; there is no way to tell.
//   - lightweight transactions (CAS, "IF ..."): a retried CAS whose first
//     attempt succeeded finds its own write and reports that the condition
//     failed, and a retry may apply the update after another client's,
//     breaking the linearizable order that is the point of a CAS. After a
//     CAS timeout, read at SERIAL to learn what happened.
//
// Mark them NotIdempotent; an execution profile may also give them
// FallthroughPolicy as their own Policy, so that nothing about them is
// retried.
//
// # When downgrading is dangerous
//
// DowngradingPolicy and LadderPolicy retry at a lower level than the
// application asked for, and the statement then succeeds with a weaker
// guarantee than the application believes it has. A QUORUM read retried at
// ONE may miss a write that QUORUM acknowledged, since one replica need not
// overlap a write quorum: read-your-writes and monotonic reads are lost. A
// QUORUM write downgraded to ONE is durable on one replica only, and a
// QUORUM read that follows may not see it. A LOCAL_QUORUM downgraded to ONE
// may be served by a remote datacenter. Downgrade only where a possibly
// stale answer beats no answer, and watch it: every downgraded attempt is
// reported to Config.OnDowngrade and counted, and so is every Ignore verdict
// that accepts a write fewer replicas acknowledged than asked
// (Downgrade.Ignored; Metrics.Ignores). Result.Level says which level the
// statement was served at, the level such a write reached (ONE for one
// acknowledgement) included, and Result.Downgraded reports either, so the
// application can re-read or repair the rows it touched. A failed statement's ExecutionError.Level
// says the level of the attempt that failed last: a write that timed out
// there may still have been applied at that weaker level.
//
// # Watching retries
//
// Config.OnRetry is told of every retry about to run: the statement, the
// retry count, the error that caused it, the policy's verdict, the level
// and target of the retry, and the backoff before it. It runs
// synchronously, on the goroutine that called Execute, and must not block.
// The Executor's Metrics count retries by cause, successes after retries,
// exhaustion, speculative attempts, budget refusals and downgrades. Each
// AttemptRecord of a Result or an ExecutionError says how the attempt
// ended, and for a failure why nothing followed it (Reason); its String
// prints a success as "succeeded".
//
// # Classification and panics
//
// An attempt's error is classified (see Classify) by its own chain of
// wrapped errors, not by the replicas' errors a read or write failure lists:
// one replica's refused request does not make a partly applied write a
// request never sent. A policy that panics fails the statement with a
// *PolicyPanicError; a panic of an attempt that ran on a goroutine of its
// own (when the statement speculates) is re-raised on the caller's as an
// *AttemptPanicError holding the attempt's stack.
//
// # Speculation and the budget
//
// With Config.Speculation, an idempotent statement that has not succeeded
// after a delay (fixed, or a *latency.Threshold tracking recent latency)
// is also sent to the next target, and after each further delay to the one
// after, up to Config.SpeculativeExecutions (default 1) speculative
// attempts, as the Java driver's ConstantSpeculativeExecutionPolicy and
// gocql's SimpleSpeculativeExecution do. The first success wins and every
// other attempt is cancelled through its context; Execute returns once all
// have returned. Every extra attempt, retry or speculative, is real load: a
// Budget holds them to a fraction of the requests over a sliding window,
// so that a failing cluster is not hammered by a retry storm. A Budget may
// be shared with a coordinator's hedges, so that both draw on one
// allowance.
package retry
