package main

import "fmt"

// timing is how late the machine woke goroutines around one row's run, in
// milliseconds: what says whether its figures are the read path's or the
// machine's.
type timing struct {
	// IdleLateP99 is the 99th percentile of how late the probe's sleeps
	// ended just before the run, with nothing else running.
	IdleLateP99 float64 `json:"idle_timer_late_p99_ms"`
	// LateP99 is the same while the run was measured. Both count a stall
	// as every wake-up it held back (see probe.observe).
	LateP99 float64 `json:"timer_late_p99_ms"`
	// SchedP99 is the 99th percentile of how long goroutines waited to run
	// once runnable while the run was measured (the runtime's
	// /sched/latencies:seconds), as the upper end of the runtime's bucket
	// that holds it: near 5 ms the buckets are a quarter wide, so a wait
	// of 4.2 to 5.2 ms reads 5.24 and flags the row; 0 where the runtime
	// does not say.
	SchedP99 float64 `json:"sched_delay_p99_ms"`
}

// overloadMS is the delay, in ms, past which one wake-up in a hundred
// makes a row's figures the machine's rather than the read path's. It is
// the size of a hedge threshold: readsim's percentile policies hedge at
// 3.8 to 5.6 ms (the 90th to 99th percentile of a healthy QUORUM read's
// first round), so a goroutine that wakes 5 ms late decides by itself
// whether a read hedges and where its p99 falls. Measured on an idle
// 2-vCPU Linux machine, the probe's p99 is 0.3 to 1.6 ms (the runtime's
// epoll_wait sleeps in whole milliseconds, golang/go#53824); the fan-out
// scenario's own bursts of 100 reads raise it to 1.5 to 3.5 ms, which is
// the read path's cost, not noise. One CPU-bound process beside readsim
// gave 1.3 to 3.3 ms and moved p99s by up to 15 %; two gave 20 to 360 ms,
// and p99s of half a second for reads modelled at 6 ms.
const overloadMS = 5.0

// warning says why the row's figures cannot be trusted, or is empty: the
// machine woke goroutines too late while the row was measured. Whether it
// was already that late before the run tells other processes' load from
// readsim's own, and is said too; a late idle probe alone flags nothing,
// as it does not touch the row's figures.
func (t timing) warning() string {
	var why string
	switch {
	case t.LateP99 > overloadMS:
		why = fmt.Sprintf("wake-ups %.1f ms late (p99)", t.LateP99)
	case t.SchedP99 > overloadMS:
		why = fmt.Sprintf("goroutines waited up to %.1f ms to run (p99)", t.SchedP99)
	default:
		return ""
	}
	if t.IdleLateP99 > overloadMS {
		why += fmt.Sprintf("; %.1f ms already before the run, with readsim idle: other processes", t.IdleLateP99)
	}
	return why
}
