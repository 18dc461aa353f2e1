package coordinator_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// Whatever ParseStrategy accepts is a strategy's name in some ASCII letter
// case, which prints back as that name; anything else is a typed error and
// leaves a Strategy it is unmarshalled into as it was.
func FuzzParseStrategy(f *testing.F) {
	for _, s := range []string{"DATA_AND_DIGESTS", "digest_first", "Digest_First", "", "DIGEſT_FIRST", "DIGEST_FIRST "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := coordinator.ParseStrategy(s)
		if err != nil {
			v := coordinator.DigestFirst
			if !errors.Is(err, coordinator.ErrUnknownStrategy) || v.UnmarshalText([]byte(s)) == nil || v != coordinator.DigestFirst {
				t.Fatalf("%q: error %v, or UnmarshalText changed the strategy to %v", s, err, v)
			}
			return
		}
		if strings.ToUpper(s) != got.String() {
			t.Fatalf("%q parsed as %s", s, got)
		}
	})
}
