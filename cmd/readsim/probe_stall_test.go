package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A stall of the whole process (a stopped VM, a descheduled process) holds
// back every timer and read in flight, but wakes the probe only once: a
// 100 ms SIGSTOP during a healthy run of 20,000 reads took its p99.9 from
// 8 to 111 ms while the probe's p99 read 2.6 ms and the row was trusted.
// Counted as the wake-ups it skipped, one such stall among 1,000 on-time
// sleeps flags the row.
func TestProbeCountsTheWakeUpsAStallSkipped(t *testing.T) {
	p := &probe{late: newRecorder()}
	for range 1000 {
		p.observe(100 * time.Microsecond)
	}
	p.observe(100 * time.Millisecond)
	late := timing{LateP99: p.late.quantileMS(99)}
	assert.Greater(t, late.LateP99, overloadMS)
	assert.Contains(t, late.warning(), "wake-ups")
}

// Lateness under the interval adds nothing, and a few wake-ups a
// millisecond or two late, the fan-out scenario's own, stay under the
// limit.
func TestProbeJitterIsNotAStall(t *testing.T) {
	p := &probe{late: newRecorder()}
	for i := range 1000 {
		late := 300 * time.Microsecond
		if i%20 == 0 {
			late = 3 * time.Millisecond
		}
		p.observe(late)
	}
	assert.Equal(t, int64(1000+50*2), p.late.count(), "a 3 ms sleep stands for itself and the 2 wake-ups it skipped")
	assert.InDelta(t, 3.0, p.late.quantileMS(99), 0.01)
}
