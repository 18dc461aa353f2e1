package ring

import (
	"math"
	"strconv"
	"time"
)

// Backoff is the schedule of probes of a convicted replica: the n-th probe
// (from 0) waits Initial * 2^n, capped at Max, less a random fraction of up
// to Jitter of it, so that coordinators that convicted a node together do
// not probe it in step. It is a plain value, safe for concurrent use.
type Backoff struct {
	// Initial is the wait before the first probe. Default 1 s.
	Initial time.Duration
	// Max caps the wait. Default 60 s (the Java driver's reconnection cap),
	// or Initial if that is longer.
	Max time.Duration
	// Jitter, in [0, 1), is the largest fraction removed from a wait.
	// Default 0.2; a negative Jitter means none.
	Jitter float64
}

// Delay returns the wait before probe n, given a draw r in [0, 1) that
// picks the jitter. Zero fields take their defaults. The wait is never
// negative nor above Max: outside what NewDetector accepts, a negative
// Initial or Max waits 0, a Jitter above 1 counts as 1, and an r below 0
// (or NaN) as 0, one above 1 as 1.
func (b Backoff) Delay(n int, r float64) time.Duration {
	b = b.withDefaults()
	if b.Initial < 0 || b.Max < 0 {
		return 0
	}
	d := b.Max
	// In floating point, any n: a product at or past Max (+Inf included)
	// is capped, and one below it fits a Duration.
	if exp := float64(b.Initial) * math.Exp2(float64(n)); exp < float64(b.Max) {
		d = time.Duration(exp)
	}
	if b.Jitter > 0 {
		switch {
		case !(r > 0):
			r = 0
		case r > 1:
			r = 1
		}
		d -= time.Duration(float64(d) * min(b.Jitter, 1) * r)
	}
	return max(d, 0) // float64(d) may round up past d
}

func (b Backoff) withDefaults() Backoff {
	if b.Initial == 0 {
		b.Initial = time.Second
	}
	if b.Max == 0 {
		b.Max = max(time.Minute, b.Initial) // setting Initial alone is never refused
	}
	if b.Jitter == 0 {
		b.Jitter = 0.2
	}
	return b
}

func (b Backoff) validate() error {
	switch {
	case b.Initial < 0:
		return &ConfigError{Setting: "Probe.Initial", Reason: "negative duration " + b.Initial.String()}
	case b.Max < 0:
		return &ConfigError{Setting: "Probe.Max", Reason: "negative duration " + b.Max.String()}
	case b.Max < b.Initial:
		return &ConfigError{Setting: "Probe.Max", Reason: b.Max.String() + " below Probe.Initial " + b.Initial.String()}
	case !(b.Jitter < 1) || math.IsNaN(b.Jitter):
		return &ConfigError{Setting: "Probe.Jitter", Reason: strconv.FormatFloat(b.Jitter, 'g', -1, 64) + " is not below 1"}
	}
	return nil
}
