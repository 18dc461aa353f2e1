package coordinator_test

import (
	"errors"
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// ParseStrategy accepts exactly a strategy's name with its ASCII letters in
// any case (no Unicode folding, such as ſ for S, and no trimming); anything
// else is a typed error and leaves a Strategy it is unmarshalled into as it
// was.
func FuzzParseStrategy(f *testing.F) {
	for _, s := range []string{"DATA_AND_DIGESTS", "digest_first", "Digest_First", "", "DIGEſT_FIRST", "DIGEST_FIRST "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		upper := []byte(s)
		for i, c := range upper {
			if 'a' <= c && c <= 'z' {
				upper[i] = c - ('a' - 'A')
			}
		}
		want, known := coordinator.DataAndDigests, false
		for _, st := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
			if string(upper) == st.String() {
				want, known = st, true
			}
		}
		got, err := coordinator.ParseStrategy(s)
		if !known {
			v := coordinator.DigestFirst
			if !errors.Is(err, coordinator.ErrUnknownStrategy) || v.UnmarshalText([]byte(s)) == nil || v != coordinator.DigestFirst {
				t.Fatalf("%q: ParseStrategy = %v, %v, or UnmarshalText changed the strategy to %v", s, got, err, v)
			}
			return
		}
		if err != nil || got != want {
			t.Fatalf("ParseStrategy(%q) = %v, %v; want %v", s, got, err, want)
		}
	})
}
