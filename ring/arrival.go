package ring

import (
	"fmt"
	"math"
	"time"
)

// ArrivalWindow is Cassandra's ArrivalWindow: the last Size intervals
// between a node's heartbeats, from which phi is computed. The first
// heartbeat records Initial as an interval (a large guess: too high delays
// a conviction, too low makes nodes flap); an interval above Max is not
// recorded, so that a long partition does not teach the window to wait
// longer. It is a plain value with no clock: times are inputs. It is not
// safe for concurrent use. The zero ArrivalWindow is not usable: make one
// with NewArrivalWindow.
//
// The window holds only the intervals recorded so far, growing to Size as
// they arrive: a detector learns every node of a large cluster at once, and
// 1000 intervals (8 KB) for each would be 40 MB at 5,000 nodes before any
// of them had sent a second heartbeat.
type ArrivalWindow struct {
	intervals []time.Duration // a ring buffer once it holds size intervals
	size      int
	next      int // where the next interval goes once full
	sum       time.Duration
	last      time.Time
	started   bool
	initial   time.Duration
	max       time.Duration
}

// NewArrivalWindow returns an empty window of size intervals. Cassandra's
// are 1000, 2 s (twice the gossip interval) and 2 s. A size, initial or
// max below 1 gets a *ConfigError, and so does an initial or max interval
// whose size-fold sum would not fit a time.Duration (about 106 days at a
// size of 1000): it wrapped negative, and so did Mean and Phi.
func NewArrivalWindow(size int, initial, max time.Duration) (*ArrivalWindow, error) {
	if size < 1 || initial < 1 || max < 1 {
		return nil, &ConfigError{Setting: "arrival window", Reason: "size, initial and max interval must be positive"}
	}
	if limit := time.Duration(math.MaxInt64 / int64(size)); initial > limit || max > limit {
		return nil, &ConfigError{Setting: "arrival window", Reason: fmt.Sprintf("initial and max interval must be at most %v, so that %d of them add up", limit, size)}
	}
	return &ArrivalWindow{size: size, initial: initial, max: max}, nil
}

// Add records a heartbeat that arrived at at. A heartbeat not after the
// previous one is ignored: one delivered twice (by two gossip paths, say)
// would otherwise count an interval of zero, which shortens the silence
// that convicts, and a window of zeros has a mean of 0 (Cassandra's
// gossiper reports only newer heartbeat versions, so it never sees one).
func (w *ArrivalWindow) Add(at time.Time) {
	switch {
	case !w.started:
		w.record(w.initial)
		w.started = true
	case !at.After(w.last):
		return
	case at.Sub(w.last) <= w.max:
		w.record(at.Sub(w.last))
	}
	w.last = at
}

func (w *ArrivalWindow) record(d time.Duration) {
	w.sum += d
	if n := len(w.intervals); n < w.size {
		if n == cap(w.intervals) {
			// Double, but never past size: append's growth would.
			grown := make([]time.Duration, n, min(max(2*n, 4), w.size))
			copy(grown, w.intervals)
			w.intervals = grown
		}
		w.intervals = append(w.intervals, d)
		return
	}
	w.sum -= w.intervals[w.next]
	w.intervals[w.next] = d
	w.next++
	if w.next == w.size {
		w.next = 0
	}
}

// Mean returns the mean recorded interval, or 0 before the first heartbeat.
func (w *ArrivalWindow) Mean() time.Duration {
	if w.count() == 0 {
		return 0
	}
	return w.sum / time.Duration(w.count())
}

// Last returns the time of the latest heartbeat, and false before any.
func (w *ArrivalWindow) Last() (time.Time, bool) { return w.last, w.started }

// Phi returns Cassandra's phi at now: the time since the latest heartbeat
// over the mean interval, divided by ln 10 (Cassandra's PHI_FACTOR), that
// is -log10 of the chance that a heartbeat is still to come if intervals
// were exponentially distributed. It is 0 before the first heartbeat, and
// at a now before the latest (never negative, as a gauge exports it). A
// node is convicted when phi exceeds a threshold: 8 by default, reached
// after 8 * ln 10, about 18.4, mean intervals of silence.
func (w *ArrivalWindow) Phi(now time.Time) float64 {
	if !w.started {
		return 0
	}
	mean := float64(w.sum) / float64(w.count())
	return max(float64(now.Sub(w.last)), 0) / mean / math.Ln10
}

func (w *ArrivalWindow) count() int { return len(w.intervals) }

// SilenceBound returns how long after the latest heartbeat phi exceeds
// threshold: threshold * ln 10 * the mean interval, at most the longest
// time.Duration (converting more gave a negative one). Phi is never
// negative, so a negative threshold gives 0; a NaN one, never passed, the
// longest time.Duration.
func (w *ArrivalWindow) SilenceBound(threshold float64) time.Duration {
	if !w.started || threshold < 0 {
		return 0
	}
	mean := float64(w.sum) / float64(w.count())
	if d := threshold * math.Ln10 * mean; d < math.MaxInt64 {
		return time.Duration(d)
	}
	return math.MaxInt64
}
