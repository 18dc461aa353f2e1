package coordinator_test

import (
	"testing"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/nametest"
)

// ParseStrategy accepts exactly a strategy's name with its ASCII letters in
// any case (no Unicode folding, such as ſ for S, and no trimming); anything
// else is a typed error and leaves a Strategy it is unmarshalled into as it
// was.
func FuzzParseStrategy(f *testing.F) {
	for _, s := range []string{"DATA_AND_DIGESTS", "digest_first", "Digest_First", "", "DIGEſT_FIRST", "dıgest_fırst", "DIGEST_FIRST "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, coordinator.ParseStrategy, coordinator.ErrUnknownStrategy,
			coordinator.DataAndDigests, coordinator.DigestFirst)
		if _, err := coordinator.ParseStrategy(s); err != nil {
			v := coordinator.DigestFirst
			if v.UnmarshalText([]byte(s)) == nil || v != coordinator.DigestFirst {
				t.Fatalf("UnmarshalText(%q) changed the strategy to %v", s, v)
			}
		}
	})
}
