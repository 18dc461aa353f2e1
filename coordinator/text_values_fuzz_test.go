package coordinator_test

import (
	"encoding"
	"encoding/json"
	"errors"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/nametest"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
)

// FuzzTextValuesRoundTrip feeds the same text to every TextUnmarshaler a
// configuration file or a client hands the library (consistency.Level,
// repair.Mode, coordinator.Strategy, latency.SpeculativeRetry,
// digest.Digest), directly and as a JSON string, and checks their godocs:
// a refusal matches the package's sentinel error and leaves the value as it
// was; an accepted text agrees with the package's Parse function, marshals
// (MarshalText and JSON) to text that unmarshals back to an equal value, and
// is the canonical name in another ASCII letter case where the godoc says
// names are only case-folded.
func FuzzTextValuesRoundTrip(f *testing.F) {
	for _, s := range []string{"ONE", "local_quorum", "BLOCKING", "none", "digest_first", "99p", "MIN(99p,10ms)",
		"50ms", "0001abcdef00000000000000000000ff", "ſerial", "", "\"", "Level(3)", "99.99999p", "NEVER"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		js, _ := json.Marshal(s)
		type value struct {
			name     string
			fresh    func() encoding.TextUnmarshaler // a sentinel value to unmarshal into
			sentinel error
			parse    func(string) (any, error)
			deref    func(encoding.TextUnmarshaler) any
			folded   bool // accepted text is the canonical name, ASCII case-folded
		}
		values := []value{
			{"Level", func() encoding.TextUnmarshaler { l := consistency.LocalSerial; return &l }, consistency.ErrUnknownLevel,
				func(s string) (any, error) { return consistency.ParseLevel(s) },
				func(u encoding.TextUnmarshaler) any { return *u.(*consistency.Level) }, true},
			{"Mode", func() encoding.TextUnmarshaler { m := repair.Mode(1); return &m }, repair.ErrUnknownMode,
				func(s string) (any, error) { return repair.ParseMode(s) },
				func(u encoding.TextUnmarshaler) any { return *u.(*repair.Mode) }, true},
			{"Strategy", func() encoding.TextUnmarshaler { x := coordinator.DigestFirst; return &x }, coordinator.ErrUnknownStrategy,
				func(s string) (any, error) { return coordinator.ParseStrategy(s) },
				func(u encoding.TextUnmarshaler) any { return *u.(*coordinator.Strategy) }, true},
			{"SpeculativeRetry", func() encoding.TextUnmarshaler { p := latency.Always(); return &p }, latency.ErrInvalidSpeculativeRetry,
				func(s string) (any, error) { return latency.ParseSpeculativeRetry(s) },
				func(u encoding.TextUnmarshaler) any { return u.(*latency.SpeculativeRetry).String() }, false},
			{"Digest", func() encoding.TextUnmarshaler { d := digest.Digest{1, 2, 3}; return &d }, digest.ErrInvalidDigest,
				func(s string) (any, error) { return digest.ParseDigest(s) },
				func(u encoding.TextUnmarshaler) any { return *u.(*digest.Digest) }, false},
		}
		for _, v := range values {
			u := v.fresh()
			before := v.deref(u)
			err := u.UnmarshalText([]byte(s))
			parsed, perr := v.parse(s)
			if (err != nil) != (perr != nil) {
				t.Fatalf("%s: UnmarshalText(%q) = %v, Parse = %v", v.name, s, err, perr)
			}
			ju := v.fresh()
			jerr := json.Unmarshal(js, ju)
			if err != nil {
				if !errors.Is(err, v.sentinel) {
					t.Fatalf("%s: UnmarshalText(%q) = %v, not matching %v", v.name, s, err, v.sentinel)
				}
				if after := v.deref(u); after != before {
					t.Fatalf("%s: a refused UnmarshalText(%q) changed the value from %v to %v", v.name, s, before, after)
				}
				if jerr == nil || !errors.Is(jerr, v.sentinel) {
					t.Fatalf("%s: json.Unmarshal(%s) = %v, want an error matching %v", v.name, js, jerr, v.sentinel)
				}
				continue
			}
			got := v.deref(u)
			if p, ok := parsed.(latency.SpeculativeRetry); ok {
				parsed = p.String()
			}
			if got != parsed {
				t.Fatalf("%s: UnmarshalText(%q) = %v, Parse = %v", v.name, s, got, parsed)
			}
			if jerr != nil || v.deref(ju) != got {
				t.Fatalf("%s: json.Unmarshal(%s) = %v, %v; want %v", v.name, js, v.deref(ju), jerr, got)
			}
			m, merr := u.(encoding.TextMarshaler).MarshalText()
			if merr != nil {
				t.Fatalf("%s: MarshalText of %v: %v", v.name, got, merr)
			}
			if v.folded && !nametest.EqualFold(s, string(m)) {
				t.Fatalf("%s: %q accepted as %q, which is not its case-folded name", v.name, s, m)
			}
			back := v.fresh()
			if err := back.UnmarshalText(m); err != nil || v.deref(back) != got {
				t.Fatalf("%s: %q marshals to %q, which reads back as %v, %v", v.name, s, m, v.deref(back), err)
			}
			jb, err := json.Marshal(u)
			if err != nil {
				t.Fatalf("%s: json.Marshal: %v", v.name, err)
			}
			back = v.fresh()
			if err := json.Unmarshal(jb, back); err != nil || v.deref(back) != got {
				t.Fatalf("%s: JSON %s reads back as %v, %v", v.name, jb, v.deref(back), err)
			}
		}
	})
}
