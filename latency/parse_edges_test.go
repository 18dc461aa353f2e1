package latency_test

import (
	"encoding"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// Accepted spellings and the canonical form each reads back as, per
// DESIGN.md 2.2 and Cassandra's *SpeculativeRetryPolicy.fromString.
func TestParseEdgeCasesCanonicalForms(t *testing.T) {
	for in, want := range map[string]string{
		"99p":                   "99p",
		"99P":                   "99p",
		"99percentile":          "99p",
		"99PeRcEnTiLe":          "99p",
		"99.95PERCENTILE":       "99.95p",
		"99.9999p":              "99.9999p",
		"99.99990p":             "99.9999p", // zeros past the fourth decimal are no decimals
		"0.0001p":               "0.0001p",
		".5p":                   "0.5p",
		"5.p":                   "5p",
		"0099.50p":              "99.5p",
		"0ms":                   "0ms",
		"0.9ms":                 "0ms", // truncated, as Cassandra's (int) cast
		"50.9ms":                "50ms",
		"50.ms":                 "50ms",
		"50MS":                  "50ms",
		"50Ms":                  "50ms",
		"9223372036854ms":       "9223372036854ms", // the largest whole-ms time.Duration
		"MIN(50ms,99p)":         "MIN(99p,50ms)",
		"min(99p,50ms)":         "MIN(99p,50ms)",
		"Max(99PERCENTILE,0ms)": "MAX(99p,0ms)",
		"MIN(99p , 50ms)":       "MIN(99p,50ms)",
		"MIN(99p\t,\n50ms)":     "MIN(99p,50ms)",
		"MAX(50.9ms,99.5p)":     "MAX(99.5p,50ms)",
		"always":                "ALWAYS",
		"never":                 "NEVER",
		"nOnE":                  "NEVER",
	} {
		p, err := latency.ParseSpeculativeRetry(in)
		if !assert.NoError(t, err, "%q", in) {
			continue
		}
		assert.Equal(t, want, p.String(), "%q", in)
		back, err := latency.ParseSpeculativeRetry(p.String())
		require.NoError(t, err, "%q", p.String())
		assert.True(t, back.Equal(p), "%q round-trips as %v", p.String(), back)
	}
}

// Everything outside the grammar is refused with an error wrapping
// ErrInvalidSpeculativeRetry that quotes the input.
func TestParseRejectsWithTypedError(t *testing.T) {
	for _, in := range []string{
		"", " ", "p", "ms", "PERCENTILE", ".p", ".ms", "..5p",
		"0p", "0.0p", "0.00000p", "-0p", "100p", "100.0p", "100.00001p", "101p", "1e2p",
		"99.99999p", "99.00001p", "0.00001p", // more than 4 decimals
		"-5ms", "+5ms", "1e2ms", "1E2ms", "0x10ms", "5 ms", " 5ms", "5ms ", "5msx", "5s", "5us",
		"NaNp", "NaNms", "Infms", "+Infms", "infp", "∞ms",
		"99.5.1p", "1..0ms", "5,5ms", "1_000ms",
		"9223372036855ms", "99999999999999999999999999999ms", "18446744073709551716p",
		"MIN(99p,50ms", "MIN 99p,50ms)", "MIN (99p,50ms)", "MIN( 99p,50ms)", "MIN(99p,50ms )",
		"MIN(99p,50ms) ", "MIN(99p,50ms)x", "MIN(99p,50ms))", "MIN((99p,50ms)", "MIN()", "MIN(,)",
		"MIN(99p)", "MIN(99p,)", "MIN(,50ms)", "MIN(99p,50ms,1ms)", "MIN(50ms,50ms)", "MIN(99p,95p)",
		"MIN(ALWAYS,50ms)", "MIN(99p,NEVER)", "MIN(99p,MAX(99p,50ms))", "MIN", "MAX", "MINIMUM(99p,50ms)",
		"AVG(99p,50ms)", "(99p)", "99p,50ms", "MIN(0p,50ms)", "MIN(100p,50ms)", "MIN(99p,-1ms)",
		"MIN(99p,1e2ms)", "MIN(99p,9223372036855ms)",
		"ALWAYSX", "ALWAY", " ALWAYS", "ALWAYS ", "NEVERMORE", "ALWAYſ", "NONE\n",
		"99p\x00", "\x0099p",
	} {
		_, err := latency.ParseSpeculativeRetry(in)
		if assert.Error(t, err, "%q", in) {
			assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%q", in)
			assert.Contains(t, err.Error(), strconv.Quote(in), "%q: the message quotes the input", in)
		}
	}
}

// A huge fixed delay never wraps around into a short (or negative) one.
func TestParseHugeFixedDelayNeverWraps(t *testing.T) {
	p, err := latency.ParseSpeculativeRetry("9223372036854.999ms")
	require.NoError(t, err)
	assert.Equal(t, time.Duration(9223372036854)*time.Millisecond, p.FixedDelay())
	assert.Positive(t, p.FixedDelay())
	for _, in := range []string{"9223372036855ms", "18446744073709551616ms", "18446744073709551617ms",
		"36893488147419103232ms", strings.Repeat("9", 400) + "ms"} {
		_, err := latency.ParseSpeculativeRetry(in)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, in)
	}
	for _, in := range []string{"18446744073709551616.5p", strings.Repeat("9", 400) + "p", "18446744073709551699p"} {
		_, err := latency.ParseSpeculativeRetry(in)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, in)
	}
}

// The constructors refuse what the parser refuses, NaN and infinities
// included, with the same typed error.
func TestConstructorsRejectNonFinite(t *testing.T) {
	for _, p := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 100, 100.00001, 99.99999, 1e-5, -1, math.SmallestNonzeroFloat64, math.Nextafter(100, 0)} {
		_, err := latency.Percentile(p)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", p)
		_, err = latency.Min(p, time.Millisecond)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", p)
		_, err = latency.Max(p, time.Millisecond)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", p)
	}
	for _, d := range []time.Duration{-time.Millisecond, time.Millisecond + 1, time.Microsecond, math.MinInt64} {
		_, err := latency.Fixed(d)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", d)
		_, err = latency.Min(99, d)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", d)
	}
	for _, p := range []float64{0.0001, 99.9999, 50, 99.95} {
		s, err := latency.Percentile(p)
		require.NoError(t, err, "%v", p)
		assert.Equal(t, p, s.Percentile())
		back, err := latency.ParseSpeculativeRetry(s.String())
		require.NoError(t, err)
		assert.True(t, back.Equal(s), "%v -> %q", p, s.String())
	}
}

// UnmarshalText leaves the policy alone on error and reads what
// MarshalText writes.
func TestTextRoundTripAndFailedUnmarshal(t *testing.T) {
	var _ encoding.TextUnmarshaler = (*latency.SpeculativeRetry)(nil)
	p := mustParse(t, "MAX(99.5p,20ms)")
	orig := p
	err := p.UnmarshalText([]byte("MAX(99.5p,20ms"))
	assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry)
	assert.True(t, errors.Is(err, latency.ErrInvalidSpeculativeRetry))
	assert.Equal(t, orig, p)
	b, err := p.MarshalText()
	require.NoError(t, err)
	var q latency.SpeculativeRetry
	require.NoError(t, q.UnmarshalText(b))
	assert.True(t, q.Equal(p))
	assert.Equal(t, latency.KindMax, q.Kind())
	assert.Equal(t, 99.5, q.Percentile())
	assert.Equal(t, 20*time.Millisecond, q.FixedDelay())
}
