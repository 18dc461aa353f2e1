package latency

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// SpeculativeRetry is a table's speculative retry policy (Cassandra's table
// option speculative_retry): when a read should send one extra request to
// another replica. Build one with ParseSpeculativeRetry or the constructors.
//
// The zero value is the default policy, 99p, and every method treats it as
// such. It is a distinct value from a constructed or parsed 99p, so == tells
// them apart: compare policies with Equal.
//
// A SpeculativeRetry is a small comparable value, safe for concurrent use.
type SpeculativeRetry struct {
	kind  Kind          // 0: the default, 99p
	pct   uint32        // the percentile in units of 1/pctScale, for Percentile, Min and Max
	fixed time.Duration // the delay, for Fixed, Min and Max
}

// pctScale stores percentiles as integers with four decimals, so that they
// compare exactly and print back as they were written.
const pctScale = 10_000

// defaultPolicy is what the zero SpeculativeRetry means.
var defaultPolicy = SpeculativeRetry{kind: KindPercentile, pct: 99 * pctScale}

// Never returns the policy that never speculates.
func Never() SpeculativeRetry { return SpeculativeRetry{kind: KindNever} }

// Always returns the policy that sends the extra request with the first ones.
func Always() SpeculativeRetry { return SpeculativeRetry{kind: KindAlways} }

// Percentile returns the policy that speculates once a read has taken longer
// than the p-th percentile of the table's recent latency: 0 < p < 100, with
// at most four decimals, such as 99 or 99.95.
func Percentile(p float64) (SpeculativeRetry, error) {
	pct, err := checkPercentile(p)
	if err != nil {
		return SpeculativeRetry{}, err
	}
	return SpeculativeRetry{kind: KindPercentile, pct: pct}, nil
}

// Fixed returns the policy that speculates once a read has taken d, a whole
// number of milliseconds, 0 or more.
func Fixed(d time.Duration) (SpeculativeRetry, error) {
	if err := checkFixed(d); err != nil {
		return SpeculativeRetry{}, err
	}
	return SpeculativeRetry{kind: KindFixed, fixed: d}, nil
}

// Min returns the policy that speculates after the smaller of the p-th
// percentile (as for Percentile) and d (as for Fixed): MIN(<p>p,<d>ms).
func Min(p float64, d time.Duration) (SpeculativeRetry, error) { return hybrid(KindMin, p, d) }

// Max returns the policy that speculates after the larger of the p-th
// percentile (as for Percentile) and d (as for Fixed): MAX(<p>p,<d>ms).
func Max(p float64, d time.Duration) (SpeculativeRetry, error) { return hybrid(KindMax, p, d) }

func hybrid(k Kind, p float64, d time.Duration) (SpeculativeRetry, error) {
	pct, err := checkPercentile(p)
	if err != nil {
		return SpeculativeRetry{}, err
	}
	if err := checkFixed(d); err != nil {
		return SpeculativeRetry{}, err
	}
	return SpeculativeRetry{kind: k, pct: pct, fixed: d}, nil
}

func checkPercentile(p float64) (uint32, error) {
	if !(p > 0 && p < 100) { // also NaN
		return 0, fmt.Errorf("%w: percentile %v is not above 0 and below 100", ErrInvalidSpeculativeRetry, p)
	}
	scaled := p * pctScale
	r := math.Round(scaled)
	if math.Abs(scaled-r) > 1e-6 || r < 1 || r >= 100*pctScale {
		return 0, fmt.Errorf("%w: percentile %v has more than 4 decimals", ErrInvalidSpeculativeRetry, p)
	}
	return uint32(r), nil
}

func checkFixed(d time.Duration) error {
	if d < 0 || d%time.Millisecond != 0 {
		return fmt.Errorf("%w: fixed delay %v is not a whole number of milliseconds, 0 or more",
			ErrInvalidSpeculativeRetry, d)
	}
	return nil
}

// norm replaces the zero value by the policy it stands for.
func (s SpeculativeRetry) norm() SpeculativeRetry {
	if s.kind == 0 {
		return defaultPolicy
	}
	return s
}

// Equal reports whether s and o are the same policy, counting the zero value
// as 99p.
func (s SpeculativeRetry) Equal(o SpeculativeRetry) bool { return s.norm() == o.norm() }

// Kind returns the policy's kind; KindPercentile for the zero value.
func (s SpeculativeRetry) Kind() Kind { return s.norm().kind }

// Percentile returns the policy's percentile in (0, 100), or 0 for a kind
// without one (NEVER, ALWAYS, FIXED).
func (s SpeculativeRetry) Percentile() float64 {
	return float64(s.norm().pct) / pctScale
}

// FixedDelay returns the policy's fixed delay, or 0 for a kind without one
// (NEVER, ALWAYS, PERCENTILE).
func (s SpeculativeRetry) FixedDelay() time.Duration { return s.norm().fixed }

// String returns the canonical form, which ParseSpeculativeRetry reads back
// to an Equal policy: "99p", "99.95p", "50ms", "MIN(99p,50ms)" (the
// percentile first), "ALWAYS" or "NEVER".
func (s SpeculativeRetry) String() string {
	s = s.norm()
	switch s.kind {
	case KindNever, KindAlways:
		return s.kind.String()
	case KindFixed:
		return formatFixed(s.fixed)
	case KindMin, KindMax:
		return s.kind.String() + "(" + formatPercentile(s.pct) + "," + formatFixed(s.fixed) + ")"
	}
	return formatPercentile(s.pct)
}

func formatPercentile(pct uint32) string {
	whole := strconv.Itoa(int(pct / pctScale))
	frac := pct % pctScale
	if frac == 0 {
		return whole + "p"
	}
	digits := strings.TrimRight(fmt.Sprintf("%04d", frac), "0")
	return whole + "." + digits + "p"
}

func formatFixed(d time.Duration) string {
	return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
}

// MarshalText implements encoding.TextMarshaler with String.
func (s SpeculativeRetry) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with
// ParseSpeculativeRetry. On error s is left unchanged.
func (s *SpeculativeRetry) UnmarshalText(b []byte) error {
	p, err := ParseSpeculativeRetry(string(b))
	if err != nil {
		return err
	}
	*s = p
	return nil
}
