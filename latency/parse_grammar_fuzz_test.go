package latency_test

import (
	"math"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readpath/readpath/latency"
)

// FuzzParseSpeculativeRetryGrammar checks ParseSpeculativeRetry against the
// grammar of its doc, written independently as regular expressions: it
// accepts exactly the strings of the grammar and reads each as the policy
// it spells (kind, percentile to the 4th decimal, delay truncated to whole
// milliseconds). FuzzParseSpeculativeRetry checks only that what it
// accepts prints back to itself.
func FuzzParseSpeculativeRetryGrammar(f *testing.F) {
	for _, s := range []string{"ALWAYS", "never", "NoNe", "99p", "99.95PERCENTILE", ".5p", "50.p", "50ms", "12.7MS",
		"MIN(99p,50ms)", "max(50ms , 99.9p)", "MIN(99p,\t50ms)", "MAX(1p\n,\r2ms)", "99.99990p", "0.0001p",
		"9223372036854ms", "9223372036855ms", "MIN(99p ,50ms)", "MIN( 99p,50ms)", "min(99PeRcEnTiLe,0ms)", "1.2.3p", "p", ".ms",
		"100p", "0p", "0.00001p", "99.99999p", "100.0PERCENTILE", // the percentile's bounds
		"50mſ", "ALWAYſ", "MIN(99p,1mſ)", // ſ folds to s in Unicode, not in the grammar's ASCII
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := latency.ParseSpeculativeRetry(s)
		want, wantOK := grammarPolicy(s)
		if (err == nil) != wantOK {
			t.Fatalf("ParseSpeculativeRetry(%q) = %v, %v; the grammar accepts it: %v", s, got, err, wantOK)
		}
		if err != nil {
			return
		}
		if got.Kind() != want.kind {
			t.Fatalf("%q: kind %v, want %v", s, got.Kind(), want.kind)
		}
		if want.pct != nil {
			// Both are whole numbers of 1/10000: compare them so.
			w := new(big.Rat).Mul(want.pct, big.NewRat(10000, 1))
			if !w.IsInt() || math.Round(got.Percentile()*10000) != float64(w.Num().Int64()) {
				t.Fatalf("%q: percentile %v, want %v", s, got.Percentile(), want.pct.FloatString(6))
			}
		}
		if k := want.kind; (k == latency.KindFixed || k == latency.KindMin || k == latency.KindMax) &&
			got.FixedDelay() != time.Duration(want.ms)*time.Millisecond {
			t.Fatalf("%q: delay %v, want %dms", s, got.FixedDelay(), want.ms)
		}
	})
}

// anyCase is a regular expression matching word in any ASCII letter case:
// (?i) would also fold ſ to s and K (Kelvin) to k, which the grammar does not.
func anyCase(word string) string {
	var b strings.Builder
	for _, c := range word {
		b.WriteString("[" + strings.ToLower(string(c)) + strings.ToUpper(string(c)) + "]")
	}
	return b.String()
}

// The grammar of ParseSpeculativeRetry's doc: x and y digits with at most
// one decimal point, white space only around MIN's and MAX's comma.
var (
	grammarKeyword = regexp.MustCompile(`^(` + anyCase("always") + `|` + anyCase("never") + `|` + anyCase("none") + `)$`)
	grammarSimple  = regexp.MustCompile(`^([0-9]*\.?[0-9]*)(` + anyCase("ms") + `|` + anyCase("percentile") + `|[pP])$`)
	grammarCall    = regexp.MustCompile(`^(` + anyCase("min") + `|` + anyCase("max") + `)\(([^(),]*?)[ \t\n\v\f\r]*,[ \t\n\v\f\r]*([^(),]*)\)$`)
)

// grammarResult is the policy a string of the grammar spells.
type grammarResult struct {
	kind latency.Kind
	pct  *big.Rat // for a percentile, MIN and MAX
	ms   int64    // for a fixed delay, MIN and MAX
}

// grammarPolicy returns the policy s spells, and whether the grammar
// accepts it.
func grammarPolicy(s string) (grammarResult, bool) {
	if m := grammarKeyword.FindStringSubmatch(s); m != nil {
		if strings.EqualFold(m[1], "always") {
			return grammarResult{kind: latency.KindAlways}, true
		}
		return grammarResult{kind: latency.KindNever}, true
	}
	m := grammarCall.FindStringSubmatch(s)
	if m == nil {
		return grammarSimplePolicy(s)
	}
	a, okA := grammarSimplePolicy(m[2])
	b, okB := grammarSimplePolicy(m[3])
	if a.kind == latency.KindFixed {
		a, b = b, a
	}
	r := grammarResult{kind: latency.KindMin, pct: a.pct, ms: b.ms}
	if strings.EqualFold(m[1], "max") {
		r.kind = latency.KindMax
	}
	return r, okA && okB && a.kind == latency.KindPercentile && b.kind == latency.KindFixed
}

// grammarSimplePolicy parses a percentile, 0 < x < 100 with at most 4
// decimals, or a fixed delay, truncated to whole milliseconds and within
// time.Duration.
func grammarSimplePolicy(s string) (grammarResult, bool) {
	m := grammarSimple.FindStringSubmatch(s)
	if m == nil || !strings.ContainsAny(m[1], "0123456789") {
		return grammarResult{}, false
	}
	whole, frac, _ := strings.Cut(m[1], ".")
	if strings.EqualFold(m[2], "ms") {
		w, _ := new(big.Int).SetString("0"+whole, 10)
		if w.Cmp(big.NewInt(math.MaxInt64/int64(time.Millisecond))) > 0 {
			return grammarResult{}, false
		}
		return grammarResult{kind: latency.KindFixed, ms: w.Int64()}, true
	}
	v, _ := new(big.Rat).SetString("0" + whole + "." + frac + "0")
	if v.Sign() <= 0 || v.Cmp(big.NewRat(100, 1)) >= 0 || len(strings.TrimRight(frac, "0")) > 4 {
		return grammarResult{}, false
	}
	return grammarResult{kind: latency.KindPercentile, pct: v}, true
}
