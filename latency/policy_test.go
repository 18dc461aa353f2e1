package latency_test

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

func TestParseSpeculativeRetryAccepts(t *testing.T) {
	tests := []struct {
		in, canonical string
		kind          latency.Kind
		pct           float64
		fixed         time.Duration
	}{
		{"ALWAYS", "ALWAYS", latency.KindAlways, 0, 0},
		{"always", "ALWAYS", latency.KindAlways, 0, 0},
		{"NEVER", "NEVER", latency.KindNever, 0, 0},
		{"never", "NEVER", latency.KindNever, 0, 0},
		{"NONE", "NEVER", latency.KindNever, 0, 0},
		{"None", "NEVER", latency.KindNever, 0, 0},
		{"99p", "99p", latency.KindPercentile, 99, 0},
		{"99P", "99p", latency.KindPercentile, 99, 0},
		{"99PERCENTILE", "99p", latency.KindPercentile, 99, 0},
		{"99percentile", "99p", latency.KindPercentile, 99, 0},
		{"99.95p", "99.95p", latency.KindPercentile, 99.95, 0},
		{"99.9999p", "99.9999p", latency.KindPercentile, 99.9999, 0},
		{"99.950000p", "99.95p", latency.KindPercentile, 99.95, 0},
		{"0.0001p", "0.0001p", latency.KindPercentile, 0.0001, 0},
		{"050p", "50p", latency.KindPercentile, 50, 0},
		{"50.p", "50p", latency.KindPercentile, 50, 0},
		{".5p", "0.5p", latency.KindPercentile, 0.5, 0},
		{"99.0PERCENTILE", "99p", latency.KindPercentile, 99, 0},
		{"50ms", "50ms", latency.KindFixed, 0, 50 * time.Millisecond},
		{"50MS", "50ms", latency.KindFixed, 0, 50 * time.Millisecond},
		{"12.7ms", "12ms", latency.KindFixed, 0, 12 * time.Millisecond},
		{"0ms", "0ms", latency.KindFixed, 0, 0},
		{"0.9ms", "0ms", latency.KindFixed, 0, 0},
		{"9223372036854ms", "9223372036854ms", latency.KindFixed, 0, 9223372036854 * time.Millisecond},
		{"MIN(99p,50ms)", "MIN(99p,50ms)", latency.KindMin, 99, 50 * time.Millisecond},
		{"min(50ms,99p)", "MIN(99p,50ms)", latency.KindMin, 99, 50 * time.Millisecond},
		{"MAX(99.5PERCENTILE , 50.5MS)", "MAX(99.5p,50ms)", latency.KindMax, 99.5, 50 * time.Millisecond},
		{"Max(10ms\t,\n90p)", "MAX(90p,10ms)", latency.KindMax, 90, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		p, err := latency.ParseSpeculativeRetry(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.canonical, p.String(), tt.in)
		assert.Equal(t, tt.kind, p.Kind(), tt.in)
		assert.Equal(t, tt.pct, p.Percentile(), tt.in)
		assert.Equal(t, tt.fixed, p.FixedDelay(), tt.in)

		back, err := latency.ParseSpeculativeRetry(p.String())
		require.NoError(t, err, tt.in)
		assert.Equal(t, p, back, "%q round-trips through %q", tt.in, p.String())
	}
}

func TestParseSpeculativeRetryRejects(t *testing.T) {
	for _, in := range []string{
		"", "100p", "0p", "0.0p", "-1ms", "50s", " 99p", "99p ", "MIN(99p,99p)", "MIN(50ms,60ms)",
		"AVG(99p,50ms)", "100.5p", "99.99999p", "0.00001p", "+5p", "1e2p", "NaNp", "Infp", "p",
		"percentile", "ms", ".p", "5..5p", "5.5.5ms", "99 p", "50 ms", "99pp", "50msec", "9223372036855ms",
		"MIN(99p)", "MIN(99p,50ms,60ms)", "MIN( 99p,50ms)", "MIN(99p,50ms )", "MIN (99p,50ms)",
		"MIN(99p,50ms", "MIN99p,50ms)", "MIN(ALWAYS,50ms)", "MAX(99p,NEVER)", "MIN(MIN(99p,50ms),1ms)",
		"MIN()", "MIN(,)", "ALWAYS ", "NEVERMORE", "ALWAYſ", "99\u200bp", "０p",
	} {
		p, err := latency.ParseSpeculativeRetry(in)
		require.Error(t, err, "%q parsed as %v", in, p)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, in)
		assert.Contains(t, err.Error(), strconv.Quote(in), "the error quotes the input")
		assert.Equal(t, latency.SpeculativeRetry{}, p)
	}
}

func TestParseErrorExplains(t *testing.T) {
	tests := map[string]string{
		"100p":             "the percentile is not above 0 and below 100",
		"99.99999p":        "the percentile has more than 4 decimals",
		"50s":              "not a speculative retry policy",
		"MINE":             "not a speculative retry policy",
		"99999999999999ms": "the fixed delay is too long",
		"AVG(99p,50ms)":    "only MIN and MAX take arguments, as in MIN(99p,50ms)",
		"(,)":              "only MIN and MAX take arguments, as in MIN(99p,50ms)",

		"MIN(99p,10ms":           "MIN is missing its closing ')'",
		"min(50ms, 99p":          "MIN is missing its closing ')'",
		"MIN":                    "MIN needs two arguments in parentheses, as in MIN(99p,50ms)",
		"MIN99p,50ms)":           "MIN must be followed by '('",
		"MAX (99p,50ms)":         "no white space is allowed between MAX and '('",
		"MIN(99p,50ms)x":         `"x" follows the closing ')'`,
		"MIN(99p,50ms) ":         `" " follows the closing ')'`,
		"MIN(99p,50ms))":         "MIN has one ')' too many",
		"MAX(99p)":               "MAX needs two arguments, separated by a comma",
		"MAX(99p;50ms)":          "MAX needs two arguments, separated by a comma",
		"MIN(99p,50ms,60ms)":     "MIN takes two arguments, not 3",
		"MIN(,50ms)":             "MIN's first argument is missing",
		"MAX(99p, )":             "MAX's second argument is missing",
		"MIN( 99p,50ms)":         "white space is allowed only around the comma",
		"MIN(99p,50ms\t)":        "white space is allowed only around the comma",
		"MIN(MIN(99p,50ms),1ms)": "MIN's arguments are a percentile and a fixed delay, not calls",
		"MIN(ALWAYS,50ms)":       `MIN's first argument "ALWAYS" is not a percentile (99p) or a fixed delay (50ms)`,
		"MAX(99p,5s)":            `MAX's second argument "5s" is not a percentile (99p) or a fixed delay (50ms)`,
		"MIN(100p,5ms)":          "MIN's first argument: the percentile is not above 0 and below 100",
		"MIN(99p,99p)":           "MIN needs one percentile and one fixed delay",

		// Numbers too long for 64 bits saturate, never wrapping round to a
		// small, valid policy (1844674407370955162·10 is 4 modulo 2^64), as
		// Cassandra rejects such a percentile and caps such a delay
		// (Percentile- and FixedSpeculativeRetryPolicy.fromString).
		"18446744073709551620ms":          "the fixed delay is too long",
		"36893488147419103240ms":          "the fixed delay is too long",
		"18446744073709551620p":           "the percentile is not above 0 and below 100",
		"18446744073709551699.5p":         "the percentile is not above 0 and below 100",
		"MIN(18446744073709551650p,5ms)":  "MIN's first argument: the percentile is not above 0 and below 100",
		"MAX(99p,18446744073709551620ms)": "MAX's second argument: the fixed delay is too long",

		// A number holding a comma or a parenthesis is a bad number: the
		// hint that only MIN and MAX take arguments is for what is no
		// policy at all.
		"99,5p":          "a percentile is a decimal number",
		"9(9)PERCENTILE": "a percentile is a decimal number",
		"5,0ms":          "a fixed delay is a decimal number of milliseconds",
		"(50)ms":         "a fixed delay is a decimal number of milliseconds",
	}
	for in, reason := range tests {
		_, err := latency.ParseSpeculativeRetry(in)
		assert.EqualError(t, err, "latency: invalid speculative retry policy "+strconv.Quote(in)+": "+reason)
	}
}

func TestZeroPolicyIsNinetyNinthPercentile(t *testing.T) {
	var zero latency.SpeculativeRetry
	parsed, err := latency.ParseSpeculativeRetry("99p")
	require.NoError(t, err)
	built, err := latency.Percentile(99)
	require.NoError(t, err)

	assert.Equal(t, "99p", zero.String())
	assert.Equal(t, latency.KindPercentile, zero.Kind())
	assert.Equal(t, 99.0, zero.Percentile())
	assert.Zero(t, zero.FixedDelay())
	assert.False(t, zero == parsed, "== tells the zero value from a parsed 99p")
	assert.True(t, zero.Equal(parsed))
	assert.True(t, parsed.Equal(zero))
	assert.Equal(t, parsed, built)
	assert.False(t, zero.Equal(latency.Never()))

	tr := frozen()
	for ms := 1; ms <= 100; ms++ {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	d, ok := zero.Compute(tr.Snapshot(), time.Second)
	assert.True(t, ok)
	withinBucket(t, 99*time.Millisecond, d)
}

func TestConstructors(t *testing.T) {
	must := func(p latency.SpeculativeRetry, err error) latency.SpeculativeRetry {
		t.Helper()
		require.NoError(t, err)
		return p
	}
	assert.Equal(t, "NEVER", latency.Never().String())
	assert.Equal(t, "ALWAYS", latency.Always().String())
	assert.Equal(t, "99.95p", must(latency.Percentile(99.95)).String())
	assert.Equal(t, "0.0001p", must(latency.Percentile(0.0001)).String())
	assert.Equal(t, "99.9999p", must(latency.Percentile(99.9999)).String())
	assert.Equal(t, 99.95, must(latency.Percentile(99.95)).Percentile())
	assert.Equal(t, "50ms", must(latency.Fixed(50*time.Millisecond)).String())
	assert.Equal(t, "0ms", must(latency.Fixed(0)).String())
	assert.Equal(t, "MIN(99p,50ms)", must(latency.Min(99, 50*time.Millisecond)).String())
	assert.Equal(t, "MAX(75.5p,2000ms)", must(latency.Max(75.5, 2*time.Second)).String())
	assert.Equal(t, latency.KindMax, must(latency.Max(75.5, 2*time.Second)).Kind())
}

func TestConstructorsRejectBadValues(t *testing.T) {
	badPercentiles := []float64{0, 100, -1, 100.5, 99.99999, 0.00001, math.NaN(), math.Inf(1), math.Inf(-1), 1e300}
	for _, p := range badPercentiles {
		_, err := latency.Percentile(p)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", p)
		_, err = latency.Min(p, time.Millisecond)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", p)
		_, err = latency.Max(p, time.Millisecond)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", p)
	}
	for _, d := range []time.Duration{-time.Millisecond, time.Microsecond, 1500 * time.Microsecond, -1} {
		_, err := latency.Fixed(d)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", d)
		_, err = latency.Min(99, d)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", d)
		_, err = latency.Max(99, d)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%v", d)
	}
	_, err := latency.Percentile(100)
	assert.EqualError(t, err, "latency: invalid speculative retry policy: percentile 100 is not above 0 and below 100")
	_, err = latency.Fixed(1500 * time.Microsecond)
	assert.EqualError(t, err, "latency: invalid speculative retry policy: fixed delay 1.5ms is not a whole number of milliseconds, 0 or more")
}

func TestPolicyTextRoundTrip(t *testing.T) {
	type table struct {
		Speculative latency.SpeculativeRetry `json:"speculative_retry"`
	}
	b, err := json.Marshal(table{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"speculative_retry":"99p"}`, string(b))

	var got table
	require.NoError(t, json.Unmarshal([]byte(`{"speculative_retry":"min(50ms, 99.9p)"}`), &got))
	assert.Equal(t, "MIN(99.9p,50ms)", got.Speculative.String())

	p := latency.Always()
	err = p.UnmarshalText([]byte("SOMETIMES"))
	assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry)
	assert.Equal(t, latency.Always(), p, "left unchanged on error")
}

func TestKindNames(t *testing.T) {
	kinds := map[latency.Kind]string{
		latency.KindNever: "NEVER", latency.KindAlways: "ALWAYS", latency.KindPercentile: "PERCENTILE",
		latency.KindFixed: "FIXED", latency.KindMin: "MIN", latency.KindMax: "MAX",
	}
	for k, name := range kinds {
		assert.Equal(t, name, k.String())
		got, err := latency.ParseKind(strings.ToLower(name))
		require.NoError(t, err)
		assert.Equal(t, k, got)
	}
	assert.Equal(t, "Kind(0)", latency.Kind(0).String())
	assert.Equal(t, "Kind(7)", latency.Kind(7).String())
	for _, bad := range []string{"", "HYBRID", " MIN", "Kind(0)"} {
		_, err := latency.ParseKind(bad)
		assert.ErrorIs(t, err, latency.ErrUnknownKind, bad)
	}
}

// A name that is no Kind and a policy that is not in the grammar are
// different errors: ParseKind's wraps ErrUnknownKind alone and quotes the
// name, and ParseSpeculativeRetry's does not match ErrUnknownKind, so a
// caller tells them apart with errors.Is either way.
func TestAnUnknownKindIsNotAnInvalidPolicy(t *testing.T) {
	_, err := latency.ParseKind("HYBRID")
	assert.EqualError(t, err, `latency: unknown speculative retry kind "HYBRID"`)
	assert.NotErrorIs(t, err, latency.ErrInvalidSpeculativeRetry)
	_, err = latency.ParseSpeculativeRetry("HYBRID")
	assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry)
	assert.NotErrorIs(t, err, latency.ErrUnknownKind)
}
