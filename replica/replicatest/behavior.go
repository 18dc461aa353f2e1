package replicatest

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/readpath/readpath/internal/typednil"
)

// Behavior is everything that shapes how a fake replica answers. The zero
// Behavior answers at once, never pauses and never fails. A Behavior is a
// plain value, safe for concurrent reads: a replica keeps its own copy, so
// changing one after SetBehavior changes nothing.
//
// A request's life, in order: it draws its random values (see the package
// doc); its Fault may decide it on arrival; if it arrives inside a Pauses
// window it waits for the window's end; it waits for a worker (see
// WithWorkers); it then holds the worker for its service time: a random
// pause (with PauseChance) plus Latency times Slowdown times the cluster's
// slowdown.
type Behavior struct {
	// Latency is the model of service time; nil means zero.
	Latency Latency
	// Slowdown multiplies the service time drawn from Latency, as a
	// compaction or a noisy neighbour would; 0 means 1 (no slowdown).
	Slowdown float64
	// PauseChance is the probability, in [0, 1], that a request pauses for
	// a duration drawn from PauseLength (a GC pause hitting that request).
	PauseChance float64
	// PauseLength is the model of a random pause's length; it is required
	// when PauseChance is above 0.
	PauseLength Latency
	// Pauses are scheduled windows, relative to the replica's start: a
	// request arriving inside one is answered no earlier than its end. A
	// request queued or in service when one starts is not held.
	Pauses []Window
	// Fault is how the replica misbehaves beyond slowness.
	Fault Fault
}

// Window is a span of time [Start, End) relative to a replica's start (its
// creation, or its cluster's), during which the replica takes up no
// request: one arriving inside it waits for its end, as behind a
// stop-the-world GC from 100 ms to 180 ms, Window{100 * time.Millisecond,
// 180 * time.Millisecond}. Unlike a real GC, a Window does not stop the
// requests already queued or in service when it starts: one arriving at
// 95 ms with 10 ms of service answers at 105 ms. Nor does it keep the order
// of the requests it held: it releases them all at its end, and they take
// workers (WithWorkers) in the scheduler's order, whenever they arrived. A
// Window is a plain value, safe for concurrent use.
type Window struct {
	Start, End time.Duration
}

// String renders w as "[100ms, 180ms)".
func (w Window) String() string { return "[" + w.Start.String() + ", " + w.End.String() + ")" }

// Validate returns a *ConfigError if a setting is out of range: a negative,
// infinite or NaN Slowdown, a PauseChance outside [0, 1] or one without a
// PauseLength, an invalid latency model (a nil pointer as one too), a
// window that is empty or starts before 0, or an ErrorAfter fault with a
// negative delay.
func (b Behavior) Validate() error {
	if !(b.Slowdown >= 0) || math.IsInf(b.Slowdown, 1) {
		return invalid("slowdown", "%v is not a finite factor >= 0", b.Slowdown)
	}
	if !(b.PauseChance >= 0 && b.PauseChance <= 1) {
		return invalid("pause chance", "%v is not a probability", b.PauseChance)
	}
	if b.PauseChance > 0 && b.PauseLength == nil {
		return invalid("pause length", "required when the pause chance is %v", b.PauseChance)
	}
	for _, w := range b.Pauses {
		if w.Start < 0 || w.End <= w.Start {
			return invalid("pause window "+w.String(), "must start at or after 0 and end after its start")
		}
	}
	return errorsOf(validateLatency("latency", b.Latency), validateLatency("pause length", b.PauseLength), b.Fault.validate())
}

func validateLatency(setting string, l Latency) error {
	if typednil.Holds(l) { // its Sample would crash the replica's every read
		return invalid(setting, "a nil %T", l)
	}
	if v, ok := l.(validator); ok {
		return v.validate()
	}
	return nil
}

// errorsOf returns the first non-nil error.
func errorsOf(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// String summarises b, e.g. "latency Constant(3ms), slowdown 2, pauses
// [[100ms, 180ms)], fault down".
func (b Behavior) String() string {
	s := fmt.Sprintf("latency %v, slowdown %v", b.Latency, b.factor())
	if b.PauseChance > 0 {
		s += fmt.Sprintf(", pause chance %v of %v", b.PauseChance, b.PauseLength)
	}
	if len(b.Pauses) > 0 {
		s += fmt.Sprintf(", pauses %v", b.Pauses)
	}
	return s + ", fault " + b.Fault.String()
}

// factor returns the slowdown factor, reading 0 as 1.
func (b Behavior) factor() float64 {
	if b.Slowdown == 0 {
		return 1
	}
	return b.Slowdown
}

// windowEnd returns the end of the window holding elapsed, and whether one
// does. Overlapping windows chain: the request waits for the last end.
func (b *Behavior) windowEnd(elapsed time.Duration) (time.Duration, bool) {
	end, paused := elapsed, false
	for changed := true; changed; {
		changed = false
		for _, w := range b.Pauses {
			if w.Start <= end && end < w.End {
				end, paused, changed = w.End, true, true
			}
		}
	}
	return end, paused
}

// clone returns b with its own copy of Pauses.
func (b Behavior) clone() Behavior {
	b.Pauses = slices.Clone(b.Pauses)
	return b
}
