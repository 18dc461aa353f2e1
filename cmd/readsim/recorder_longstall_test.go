package main

import (
	"testing"
	"time"
)

// A stall of more than a minute (a suspended VM, a stopped process) is the
// worst overload there is, and counts as every wake-up it held back: the
// recorder's histogram topped out at a minute and dropped a value past it
// with an error nobody read, so such a stall was recorded as nothing and
// its row declared trustworthy (found by review).
func TestProbeCountsAStallOfOverAMinute(t *testing.T) {
	p := &probe{late: newRecorder()}
	for range 1000 {
		p.observe(100 * time.Microsecond) // on time
	}
	p.observe(2 * time.Minute) // one stall that held back 120,000 wake-ups
	tm := timing{LateP99: round2(p.late.quantileMS(99))}
	if tm.LateP99 <= overloadMS || tm.warning() == "" {
		t.Fatalf("after a 2-minute stall the probe's p99 lateness is %.2f ms and warning() is %q: the row is marked trustworthy (recorded %d wake-ups)",
			tm.LateP99, tm.warning(), p.late.count())
	}
}

// The same for the reads' own recorder: a latency past a minute vanishes
// from the percentiles and the count instead of being the max.
func TestRecorderKeepsLatenciesOverAMinute(t *testing.T) {
	r := newRecorder()
	r.record(2 * time.Millisecond)
	r.record(2 * time.Minute)
	if r.count() != 2 || r.maxMS() < 60_000 {
		t.Fatalf("recorded %d latencies, max %.1f ms: the 2-minute one was dropped", r.count(), r.maxMS())
	}
}
