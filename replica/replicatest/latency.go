package replicatest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Latency is a model of a replica's service time: each request draws one
// Sample from a source seeded for that request (see the package doc). A
// negative sample counts as zero.
// A Latency shared between replicas must be safe for concurrent use; the
// models of this package are immutable values and are.
type Latency interface {
	Sample(rng *rand.Rand) time.Duration
}

// validator is implemented by the models of this package, whose
// constructors cannot return an error: Behavior.Validate asks them.
type validator interface {
	validate() error
}

type constant struct {
	d time.Duration
}

// Constant returns a model that always takes d. A negative d is reported by
// Behavior.Validate.
func Constant(d time.Duration) Latency { return constant{d} }

func (c constant) Sample(*rand.Rand) time.Duration { return c.d }
func (c constant) String() string                  { return "Constant(" + c.d.String() + ")" }
func (c constant) validate() error                 { return nonNegative(c.String(), c.d) }

type uniform struct {
	lo, hi time.Duration
}

// Uniform returns a model drawing uniformly from [lo, hi], to the
// nanosecond. It needs 0 <= lo <= hi.
func Uniform(lo, hi time.Duration) Latency { return uniform{lo, hi} }

func (u uniform) Sample(rng *rand.Rand) time.Duration {
	return u.lo + time.Duration(rng.Uint64N(uint64(u.hi-u.lo)+1))
}

func (u uniform) String() string { return "Uniform(" + u.lo.String() + ", " + u.hi.String() + ")" }

func (u uniform) validate() error {
	if u.lo > u.hi {
		return invalid(u.String(), "lower bound above upper bound")
	}
	return nonNegative(u.String(), u.lo)
}

type logNormal struct {
	median time.Duration
	sigma  float64
}

// LogNormal returns the long-tailed model of real service times: median
// times e raised to a normal draw of standard deviation sigma. Sigma 0 is
// Constant(median); sigma 1 puts p99 near ten times the median. It needs
// median >= 0 and a finite sigma >= 0.
func LogNormal(median time.Duration, sigma float64) Latency { return logNormal{median, sigma} }

func (l logNormal) Sample(rng *rand.Rand) time.Duration {
	return scale(l.median, math.Exp(l.sigma*rng.NormFloat64()))
}

func (l logNormal) String() string { return fmt.Sprintf("LogNormal(%v, %g)", l.median, l.sigma) }

func (l logNormal) validate() error {
	if !(l.sigma >= 0) || math.IsInf(l.sigma, 1) {
		return invalid(l.String(), "sigma must be finite and at least 0")
	}
	return nonNegative(l.String(), l.median)
}

type empirical struct {
	samples []time.Duration
}

// Empirical returns a model that resamples the given durations, each with
// equal chance: feed it latencies measured on a real system. The slice is
// copied. It needs at least one sample, none negative.
func Empirical(samples ...time.Duration) Latency { return empirical{slices.Clone(samples)} }

func (e empirical) Sample(rng *rand.Rand) time.Duration {
	return e.samples[rng.IntN(len(e.samples))]
}

func (e empirical) String() string { return fmt.Sprintf("Empirical(%d samples)", len(e.samples)) }

func (e empirical) validate() error {
	if len(e.samples) == 0 {
		return invalid(e.String(), "no samples")
	}
	for _, d := range e.samples {
		if err := nonNegative(e.String(), d); err != nil {
			return err
		}
	}
	return nil
}

func nonNegative(setting string, d time.Duration) error {
	if d < 0 {
		return invalid(setting, "negative duration %v", d)
	}
	return nil
}

// scale returns d times f, saturating at the largest Duration rather than
// overflowing (a long-tailed draw can be huge). Zero times any factor is
// zero: two finite slowdowns can multiply to +Inf, and 0 × +Inf is NaN.
func scale(d time.Duration, f float64) time.Duration {
	if d == 0 || f == 0 {
		return 0
	}
	x := float64(d) * f
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(x)
}

// addSat returns a+b for non-negative durations, saturating like scale.
func addSat(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
