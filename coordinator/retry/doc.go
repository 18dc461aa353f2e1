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
//   - DefaultPolicy: the Java driver 4 default; at most one retry, where one
//     has a good chance to succeed.
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
// holding the last error, why execution stopped, and every attempt.
//
// # Idempotence, counters and lightweight transactions
//
// A write that timed out, or whose connection dropped, may or may not have
// been applied. Retrying it is safe only if applying it twice is the same as
// applying it once. So the executor gates: for write timeouts, error
// responses and aborted requests, a statement not marked Idempotent is
// rethrown without asking the policy, and only Idempotent statements are
// executed speculatively. Unmarked statements count as not idempotent,
// unless Config.DefaultIdempotent says otherwise, which is dangerous.
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
// reported to Config.OnDowngrade and counted, and Result.Level says which
// level the statement was served at, so the application can re-read or
// repair the rows it touched.
//
// # Speculation and the budget
//
// With Config.Speculation, an idempotent statement that has not succeeded
// after a delay (fixed, or a *latency.Threshold tracking recent latency)
// is also sent to the next target; the first success wins and the other
// attempt is cancelled through its context. Every extra attempt, retry or
// speculative, is real load: a Budget, shared with the coordinator's hedges,
// holds them to a fraction of the requests over a sliding window, so that a
// failing cluster is not hammered by a retry storm.
package retry
