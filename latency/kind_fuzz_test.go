package latency_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/readpath/readpath/latency"
)

// Whatever ParseKind accepts is a Kind's name in some ASCII letter case,
// which prints back as that name; anything else is a typed error.
func FuzzParseKind(f *testing.F) {
	for _, s := range []string{"NEVER", "always", "Percentile", "FIXED", "min", "MAX", "", "Kind(0)", "ALWAYſ", "MIN "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := latency.ParseKind(s)
		if err != nil {
			if !errors.Is(err, latency.ErrUnknownKind) {
				t.Fatalf("%q: error %v does not wrap ErrUnknownKind", s, err)
			}
			return
		}
		if strings.ToUpper(s) != k.String() {
			t.Fatalf("%q parsed as %s", s, k)
		}
	})
}
