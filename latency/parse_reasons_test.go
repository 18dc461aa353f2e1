package latency_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// A percentile above 0 whose only non-zero digits come after the fourth
// decimal, such as 0.00001p, is too precise, not zero: the error names the
// extra decimals, the fault the user must fix (DESIGN.md 2.2: up to 4
// decimals; 0 < x < 100). A check of the range that ignored the decimals
// beyond the fourth called it "not above 0".
func TestAPercentileWithOnlyDecimalsBeyondTheFourthHasTooManyDecimals(t *testing.T) {
	for _, in := range []string{"0.00001p", "0.000001PERCENTILE", "MIN(0.00009p,5ms)"} {
		_, err := latency.ParseSpeculativeRetry(in)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, in)
		assert.ErrorContains(t, err, "the percentile has more than 4 decimals", in)
		assert.NotContains(t, err.Error(), "not above 0", in)
	}
}

// A percentile or a fixed delay whose number holds a comma or a parenthesis
// is a bad number, and the error says so: the hint that only MIN and MAX
// take arguments is for what is no policy at all (DESIGN.md 2.2: anything
// else is an error naming the bad value).
func TestABadNumberWithACommaOrParenthesisIsABadNumber(t *testing.T) {
	tests := map[string]string{
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

// WithWindow(MinWindow) is the shortest window a tracker accepts, not one
// replaced by DefaultWindow: "a window shorter than MinWindow ... selects
// DefaultWindow instead" (WithWindow's doc).
func TestWithWindowAcceptsMinWindowItself(t *testing.T) {
	assert.Equal(t, latency.MinWindow, latency.NewTracker(latency.WithWindow(latency.MinWindow)).Window())
	assert.Equal(t, latency.DefaultWindow, latency.NewTracker(latency.WithWindow(latency.MinWindow-time.Nanosecond)).Window())
}
