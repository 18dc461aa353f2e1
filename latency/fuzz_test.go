package latency_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/latency"
)

func FuzzParseSpeculativeRetry(f *testing.F) {
	for _, seed := range []string{
		"ALWAYS", "never", "NONE", "99p", "99.95PERCENTILE", ".5p", "50.p", "50ms", "12.7MS", "0ms",
		"MIN(99p,50ms)", "max(50ms , 99.9p)", "100p", "0p", "-1ms", "50s", " 99p", "MIN(99p,99p)",
		"MIN(50ms,60ms)", "AVG(99p,50ms)", "", "99.99999p", "9223372036855ms", "MIN(", ")", "(,)",
		"MIN(99p,10ms", "MAX (99p,1ms)", "MIN(99p,50ms))", "MIN(,)", "max(1ms,2ms,3ms)", "MIN(MIN(99p,1ms),1ms)",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := latency.ParseSpeculativeRetry(s)
		if err != nil {
			if !errors.Is(err, latency.ErrInvalidSpeculativeRetry) {
				t.Fatalf("%q: error %v does not wrap ErrInvalidSpeculativeRetry", s, err)
			}
			if !strings.Contains(err.Error(), strconv.Quote(s)) {
				t.Fatalf("%q: error %v does not quote the input", s, err)
			}
			return
		}
		back, err := latency.ParseSpeculativeRetry(p.String())
		if err != nil || !back.Equal(p) || back.String() != p.String() {
			t.Fatalf("%q parsed as %v, which parses back as %v, %v", s, p, back, err)
		}
	})
}

// Every policy the constructors build prints in a form that parses back to
// it, and its accessors return what it was built from.
func TestConstructedPoliciesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pct := float64(rapid.IntRange(1, 999_999).Draw(t, "pct")) / 10_000
		fixed := time.Duration(rapid.Int64Range(0, 1<<40).Draw(t, "ms")) * time.Millisecond
		var p latency.SpeculativeRetry
		var err error
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0:
			p = latency.Never()
		case 1:
			p = latency.Always()
		case 2:
			p, err = latency.Percentile(pct)
		case 3:
			p, err = latency.Fixed(fixed)
		case 4:
			p, err = latency.Min(pct, fixed)
		case 5:
			p, err = latency.Max(pct, fixed)
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := latency.ParseSpeculativeRetry(p.String())
		if err != nil || back != p {
			t.Fatalf("%v parses back as %v, %v", p, back, err)
		}
		if k := p.Kind(); k != latency.KindNever && k != latency.KindAlways && k != latency.KindFixed && p.Percentile() != pct {
			t.Fatalf("%v: percentile %v, built from %v", p, p.Percentile(), pct)
		}
		if k := p.Kind(); (k == latency.KindFixed || k == latency.KindMin || k == latency.KindMax) && p.FixedDelay() != fixed {
			t.Fatalf("%v: delay %v, built from %v", p, p.FixedDelay(), fixed)
		}
	})
}

// MIN is never above MAX of the same arguments, and both lie between their
// arguments' thresholds.
func TestMinMaxLaws(t *testing.T) {
	snap := snapshotOfSpread()
	rapid.Check(t, func(t *rapid.T) {
		pct := float64(rapid.IntRange(1, 999_999).Draw(t, "pct")) / 10_000
		fixed := time.Duration(rapid.Int64Range(0, 200).Draw(t, "ms")) * time.Millisecond
		lo, _ := must(latency.Min(pct, fixed)).Compute(snap, 0)
		hi, _ := must(latency.Max(pct, fixed)).Compute(snap, 0)
		p, _ := must(latency.Percentile(pct)).Compute(snap, 0)
		f, _ := must(latency.Fixed(fixed)).Compute(snap, 0)
		if lo != min(p, f) || hi != max(p, f) {
			t.Fatalf("MIN %v, MAX %v of percentile %v and fixed %v", lo, hi, p, f)
		}
	})
}

func must(p latency.SpeculativeRetry, err error) latency.SpeculativeRetry {
	if err != nil {
		panic(err)
	}
	return p
}

func snapshotOfSpread() latency.Snapshot {
	tr := frozen()
	for us := 1; us <= 150_000; us += 37 {
		tr.Record(time.Duration(us) * time.Microsecond)
	}
	return tr.Snapshot()
}
