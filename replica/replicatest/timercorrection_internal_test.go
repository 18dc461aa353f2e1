package replicatest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The correction converges to how late the timers fire, and the timer is
// then set that much shorter.
func TestLatenessConvergesToTheTimersLateness(t *testing.T) {
	var l lateness
	for range 200 {
		set := l.correct(2 * time.Millisecond)
		l.observe(set, set+300*time.Microsecond) // every timer fires 0.3 ms late
	}
	assert.InDelta(t, 300*time.Microsecond, time.Duration(l.ns.Load()), float64(5*time.Microsecond))
	assert.InDelta(t, 1700*time.Microsecond, l.correct(2*time.Millisecond), float64(5*time.Microsecond))
}

// A timer that fires on time or early teaches nothing negative, and one
// starved of CPU for long counts only up to maxCorrection.
func TestLatenessIsClamped(t *testing.T) {
	var l lateness
	for range 500 {
		l.observe(time.Millisecond, 0)
	}
	assert.Zero(t, l.ns.Load())
	for range 500 {
		l.observe(time.Millisecond, time.Second)
	}
	assert.LessOrEqual(t, time.Duration(l.ns.Load()), maxCorrection)
	assert.Greater(t, time.Duration(l.ns.Load()), maxCorrection*9/10)
}

// Without WithTimerCorrection nothing is corrected.
func TestNoLatenessCorrectsNothing(t *testing.T) {
	var l *lateness
	l.observe(time.Millisecond, 2*time.Millisecond)
	assert.Equal(t, time.Millisecond, l.correct(time.Millisecond))
}
