package latency_test

import (
	"testing"

	"github.com/readpath/readpath/internal/nametest"
	"github.com/readpath/readpath/latency"
)

// ParseKind accepts exactly a Kind's name with its ASCII letters in any case
// (no Unicode folding, such as ſ or ı for S or I, and no trimming), and
// refuses anything else with an error wrapping ErrUnknownKind.
func FuzzParseKind(f *testing.F) {
	for _, s := range []string{"NEVER", "always", "Percentile", "FIXED", "min", "MAX", "", "Kind(0)", "ALWAYſ", "mın", "MIN "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, latency.ParseKind, latency.ErrUnknownKind, latency.KindNever, latency.KindAlways,
			latency.KindPercentile, latency.KindFixed, latency.KindMin, latency.KindMax)
	})
}
