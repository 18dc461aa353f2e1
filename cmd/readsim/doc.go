// Command readsim shows, in one run, what readpath's read path does to a
// replicated read's latency and what it costs: it drives the real
// coordinator over in-process fake clusters (package replicatest) with real
// goroutines and timers, under several scenarios and speculative-retry
// policies, and prints one row per pair beside the ideal of its model.
//
//	go run ./cmd/readsim             # every scenario and policy, about two minutes
//	go run ./cmd/readsim -quick      # the same effects in about 40 s
//	go run ./cmd/readsim -scenarios gc-pauses -policies NEVER,95p -json
//	go run ./cmd/readsim -plot tradeoff.svg
//	go run ./cmd/readsim -h          # every flag, with its default
//
// Columns: latency percentiles of whole reads (of whole requests in the
// fanout scenario) in milliseconds, failed reads included at the time they
// failed; the same p50 and p99 over the ideal's; the speculative replica
// reads a policy sends, as a share of the replica reads NEVER sends in the
// same scenario; hedges sent and won; speculative actions the budget or
// the overload switch suppressed (hedges, and reconcile reads and repair
// writes to uncontacted replicas); digest mismatches, repair writes (to
// the stale replicas a read merged, not additional writes), reads
// that failed; and how late the machine woke a sleeping goroutine
// meanwhile.
//
// The ideal is the scenario's latency model evaluated without a machine
// (a Monte Carlo of the same replica latencies and pauses, the same
// QUORUM, hedge, budget, reconciliation and repair rules, zero
// coordinator and runtime overhead): what is left between it and
// readsim's figures is what the read path loses to the machine. The
// scenarios about queueing and failure have no model; their ratio columns
// show a dash. A ratio is marked ~ where the model's latencies have a gap
// at that percentile (gc-pauses under 99p: healthy reads end near 15 ms,
// paused ones start at 50): 19 times in 20, a sample of the row's size
// drawn from the model puts that percentile within a range whose ends are
// more than twice apart, so a run with no overhead can read far from 1
// there; the note under the table gives the range, as -json does for
// every ratio.
//
// A probe goroutine sleeps 1 ms again and again while each row is
// measured, and 50 ms before it, a stall counting as every wake-up it
// held back; rows during which one wake-up in a hundred came more than
// 5 ms late, or goroutines may have waited that long to run (the
// runtime's histogram of it tells waits apart to within a quarter there),
// are marked and named in a warning: their figures are the machine's.
//
// The fake replicas correct for how late real timers fire
// (replicatest.WithTimerCorrection), so that their latencies match the
// scenarios' models on average rather than the models plus up to a
// millisecond per wait.
package main
