package ring

import "time"

// pauseGuard keeps a stall of the detector's own process from convicting
// every node: after its checks were more than max apart (the process or
// its VM stalled, or OnChange held the detector's goroutine), heartbeats
// queued meanwhile have not been recorded yet, so phi is not trusted for
// max. This is Cassandra's FailureDetector.interpret and its
// max_local_pause_in_ms. A max of 0 or less keeps no guard.
type pauseGuard struct {
	max    time.Duration
	last   time.Time // the previous check
	paused time.Time // when the latest pause was seen; zero if none
}

// allow reports whether the check at now may convict, and records it.
func (g *pauseGuard) allow(now time.Time) bool {
	if g.max <= 0 {
		return true
	}
	gap := now.Sub(g.last)
	g.last = now
	if gap > g.max {
		g.paused = now
		return false
	}
	return g.paused.IsZero() || now.Sub(g.paused) >= g.max
}
