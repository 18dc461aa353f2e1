// Package monoclock places times on a clock that a step of the wall clock
// (NTP, a resumed VM) does not move, for the state that outlives a read:
// a budget's window, a replica's age in the snitch.
package monoclock

import (
	"math"
	"time"
)

// Origin anchors the times it places to the monotonic clock at the moment
// it was made. It is a plain value, safe for concurrent use.
type Origin struct {
	t     time.Time
	nanos int64 // t.UnixNano()
}

// New returns an Origin at the current time.
func New() Origin {
	t := time.Now()
	return Origin{t: t, nanos: t.UnixNano()}
}

// Nanos returns t in nanoseconds since 1970. A time that carries a
// monotonic reading, as time.Now's do, is placed by that reading, measured
// from the origin: the wall clock stepping after the origin moves none of
// them. A time without one (a literal, or stripped with Round(0)) is its
// UnixNano: while the wall clock does not step, both agree. Such times
// beyond what an int64 of nanoseconds holds (before 1678, after 2262)
// saturate, keeping their order: UnixNano wraps there (1600 came out in
// 2184, and became a budget's newest time by far).
func (o Origin) Nanos(t time.Time) int64 {
	if t == t.Round(0) { // no monotonic reading
		// Whole seconds first: a Before and an After on every time cost
		// a budget's Deposit 2 ns in 13.
		s := t.Unix()
		if s > minSeconds && s < maxSeconds {
			return s*int64(time.Second) + int64(t.Nanosecond()) // UnixNano
		}
		switch {
		case t.Before(minNanos):
			return math.MinInt64
		case t.After(maxNanos):
			return math.MaxInt64
		}
		return t.UnixNano()
	}
	// A reading is kept only from 1885 to 2157 (time.Time.Add drops it
	// beyond), so the sum cannot wrap.
	return o.nanos + int64(t.Sub(o.t))
}

// The whole seconds strictly within them hold nothing to saturate.
const (
	minSeconds = math.MinInt64 / int64(time.Second)
	maxSeconds = math.MaxInt64 / int64(time.Second)
)

// The times UnixNano holds.
var (
	minNanos = time.Unix(0, math.MinInt64)
	maxNanos = time.Unix(0, math.MaxInt64)
)
