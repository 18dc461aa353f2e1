// Package monoclock places times on a clock that a step of the wall clock
// (NTP, a resumed VM) does not move, for the state that outlives a read:
// a budget's window, a replica's age in the snitch.
package monoclock

import "time"

// Origin anchors the times it places to the monotonic clock at the moment
// it was made.
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
// UnixNano: while the wall clock does not step, both agree.
func (o Origin) Nanos(t time.Time) int64 {
	if t == t.Round(0) { // no monotonic reading
		return t.UnixNano()
	}
	return o.nanos + int64(t.Sub(o.t))
}
