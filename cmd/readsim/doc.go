// Command readsim shows, in one run, what readpath's read path does to a
// replicated read's latency and what it costs: it drives the real
// coordinator over in-process fake clusters (package replicatest) with real
// goroutines and timers, under several scenarios and speculative-retry
// policies, and prints one row per pair.
//
//	go run ./cmd/readsim             # every scenario and policy, about a minute
//	go run ./cmd/readsim -quick      # the same effects in about 20 s
//	go run ./cmd/readsim -scenarios gc-pauses -policies NEVER,95p -json
//	go run ./cmd/readsim -plot latency.svg
//
// Columns: latency percentiles of whole reads (of whole requests in the
// fanout scenario) in milliseconds, failed reads included at the time they
// failed; the speculative replica reads a policy sends, as a share of the
// replica reads NEVER sends in the same scenario; hedges sent and won, hedges the
// budget or the overload switch suppressed, digest mismatches, repair
// writes, and reads that failed.
//
// The fake replicas correct for how late real timers fire
// (replicatest.WithTimerCorrection), so that their latencies match the
// scenarios' models on average rather than the models plus up to a
// millisecond per wait.
package main
