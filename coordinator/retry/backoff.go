package retry

import (
	"math"
	"math/rand/v2"
	"time"
)

// defaultMultiplier is ExponentialBackoff.Multiplier when left zero.
const defaultMultiplier = 2

// ExponentialBackoff is a wait before each retry that grows exponentially,
// with "full jitter": after n retries, the wait before the next one is drawn
// uniformly from [0, Ceiling(n)), where Ceiling(n) = min(Cap, Base ×
// Multiplier^n).
//
// Full jitter, because the clients that retry together are those that
// failed together, against a coordinator that was overloaded or saw too few
// replicas for all of them; spreading each retry over the whole interval
// stops them arriving in waves. AWS's study of the schemes ("Exponential
// Backoff and Jitter", 2015) found full jitter did the least work of the
// stateless ones; decorrelated jitter did about as well, but grows from the
// previous wait rather than from the retry count and Multiplier. gRPC's
// ±20 % suits reconnecting, where waiting less than the schedule is the
// risk; it leaves retries bunched around the same instant. With full jitter
// no wait reaches Ceiling(n), which is what Cap and the deadline bound.
//
// The zero ExponentialBackoff waits not at all. It is a plain value, safe
// for concurrent reads; see Rand for its use by an Executor.
type ExponentialBackoff struct {
	// Base is the ceiling of the wait before the first retry. Zero, the
	// default, disables the backoff; it must not be negative.
	Base time.Duration
	// Cap bounds every ceiling; 0, the default, for no bound but the
	// context's deadline. Otherwise it must be >= Base.
	Cap time.Duration
	// Multiplier is the growth of the ceiling per retry. Default 2 when
	// zero; otherwise at least 1 and finite.
	Multiplier float64
	// Rand, if not nil, is the source of the jitter, such as
	// rand.NewPCG(seed1, seed2) for a schedule that repeats: each wait is
	// Ceiling(n) times the next Uint64's top 53 bits over 2^53. The Executor
	// serializes its calls, so it need not be safe for concurrent use, but
	// nothing else may use it. Default: math/rand/v2's global source.
	Rand rand.Source
}

// Ceiling returns the bound of the wait after retries retries (a negative
// count counts as 0): min(Cap, Base × Multiplier^retries), saturating at the
// largest time.Duration.
func (b ExponentialBackoff) Ceiling(retries int) time.Duration {
	if b.Base <= 0 { // 0 × Multiplier^retries, which overflows to 0 × Inf: NaN
		return 0
	}
	m := b.Multiplier
	if m == 0 {
		m = defaultMultiplier
	}
	d := b.Base
	if retries > 0 && m != 1 {
		c := float64(b.Base) * math.Pow(m, float64(retries))
		if c >= math.MaxInt64 { // float64(MaxInt64) is 2^63, one past it
			return b.capped(math.MaxInt64)
		}
		// Past 2^53 ns float64 rounds Base: never come back below it.
		d = max(time.Duration(c), b.Base)
	}
	return b.capped(d)
}

// capped returns min(d, Cap), or d without a Cap. The comparison is of
// Durations: float64(Cap) may round up past Cap.
func (b ExponentialBackoff) capped(d time.Duration) time.Duration {
	if b.Cap > 0 {
		return min(d, b.Cap)
	}
	return d
}

// wait returns the wait after retries retries for u drawn from [0, 1).
func (b ExponentialBackoff) wait(retries int, u float64) time.Duration {
	return time.Duration(u * float64(b.Ceiling(retries)))
}

func (b ExponentialBackoff) validate() error {
	const p = "Config.ExponentialBackoff."
	switch {
	case b.Base < 0:
		return &ConfigError{p + "Base", b.Base, "must be >= 0"}
	case b.Base == 0 && (b.Cap != 0 || b.Multiplier != 0 || b.Rand != nil):
		return &ConfigError{p + "Base", b.Base, "must be > 0 when Cap, Multiplier or Rand is set"}
	case b.Cap < 0 || (b.Cap > 0 && b.Cap < b.Base):
		return &ConfigError{p + "Cap", b.Cap, "must be 0 (no cap) or >= Base"}
	case b.Multiplier != 0 && !(b.Multiplier >= 1 && b.Multiplier <= math.MaxFloat64):
		return &ConfigError{p + "Multiplier", b.Multiplier, "must be 0 (for 2), or >= 1 and finite"}
	}
	return nil
}

// unit maps 64 random bits to a float64 uniform in [0, 1).
func unit(x uint64) float64 { return float64(x>>11) * 0x1p-53 }
