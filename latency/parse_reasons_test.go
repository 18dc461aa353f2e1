package latency_test

import (
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

// WithWindow(MinWindow) is the shortest window a tracker accepts, not one
// replaced by DefaultWindow: "a window shorter than MinWindow ... selects
// DefaultWindow instead" (WithWindow's doc).
func TestWithWindowAcceptsMinWindowItself(t *testing.T) {
	assert.Equal(t, latency.MinWindow, latency.NewTracker(latency.WithWindow(latency.MinWindow)).Window())
	assert.Equal(t, latency.DefaultWindow, latency.NewTracker(latency.WithWindow(latency.MinWindow-time.Nanosecond)).Window())
}
