package latency

import (
	"fmt"
	"strings"
	"time"
)

// ParseSpeculativeRetry parses a policy in Cassandra's grammar, in any letter
// case and without trimming white space:
//
//	ALWAYS
//	NEVER | NONE
//	<x>p | <x>PERCENTILE          0 < x < 100, at most 4 decimals: 99p, 99.95PERCENTILE
//	<y>ms                         a decimal truncated to whole milliseconds: 50ms, 12.7ms
//	MIN(<a>,<b>) | MAX(<a>,<b>)   one percentile and one <y>ms, in either order,
//	                              white space allowed only around the comma
//
// x and y are digits with at most one decimal point; y ms must fit a
// time.Duration (about 292 years): a longer delay is refused, where
// Cassandra caps one at 2^31-1 ms. Anything else is an error wrapping
// ErrInvalidSpeculativeRetry that quotes s and says what is wrong with it:
// "MIN(99p,10ms" is missing its closing ')', "MIN( 99p,10ms)" has white
// space away from the comma, "MIN(99p,10s)" has a second argument that is
// no fixed delay.
func ParseSpeculativeRetry(s string) (SpeculativeRetry, error) {
	p, reason := parsePolicy(s)
	if reason != "" {
		return SpeculativeRetry{}, fmt.Errorf("%w %q: %s", ErrInvalidSpeculativeRetry, s, reason)
	}
	return p, nil
}

// parsePolicy returns the policy s spells, or why it spells none.
func parsePolicy(s string) (SpeculativeRetry, string) {
	switch {
	case equalFoldASCII(s, "ALWAYS"):
		return Always(), ""
	case equalFoldASCII(s, "NEVER"), equalFoldASCII(s, "NONE"):
		return Never(), ""
	}
	for _, k := range [...]Kind{KindMin, KindMax} {
		if rest, ok := cutCall(s, k.String()); ok {
			return parseCall(k, rest)
		}
	}
	p, reason := parseSimple(s)
	if reason == notAPolicy && strings.ContainsAny(s, "(),") {
		reason = "only MIN and MAX take arguments, as in MIN(99p,50ms)"
	}
	return p, reason
}

// notAPolicy is parseSimple's reason for text that is neither a percentile
// nor a fixed delay.
const notAPolicy = "not a speculative retry policy"

// cutCall reports whether s is a call of name, well formed or not, and
// returns what follows the name: s is name alone, or name followed by text
// with a parenthesis or a comma.
func cutCall(s, name string) (string, bool) {
	if len(s) < len(name) || !equalFoldASCII(s[:len(name)], name) {
		return "", false
	}
	rest := s[len(name):]
	return rest, rest == "" || strings.ContainsAny(rest, "(),")
}

const whiteSpace = " \t\n\v\f\r"

// parseSimple parses a percentile or a fixed delay.
func parseSimple(s string) (SpeculativeRetry, string) {
	if num, ok := cutSuffixFold(s, "ms"); ok {
		return parseFixed(num)
	}
	for _, unit := range [...]string{"percentile", "p"} {
		if num, ok := cutSuffixFold(s, unit); ok {
			return parsePercentile(num)
		}
	}
	return SpeculativeRetry{}, notAPolicy
}

// maxFixedMillis keeps a fixed delay within time.Duration.
const maxFixedMillis = uint64(1<<63-1) / uint64(time.Millisecond)

func parseFixed(num string) (SpeculativeRetry, string) {
	d, ok := parseDecimal(num)
	if !ok {
		return SpeculativeRetry{}, "a fixed delay is a decimal number of milliseconds"
	}
	if d.whole > maxFixedMillis {
		return SpeculativeRetry{}, "the fixed delay is too long"
	}
	return SpeculativeRetry{kind: KindFixed, fixed: time.Duration(d.whole) * time.Millisecond}, ""
}

func parsePercentile(num string) (SpeculativeRetry, string) {
	d, ok := parseDecimal(num)
	if !ok {
		return SpeculativeRetry{}, "a percentile is a decimal number"
	}
	if d.whole >= 100 || d.whole == 0 && d.frac == 0 && !d.fracBeyond {
		return SpeculativeRetry{}, "the percentile is not above 0 and below 100"
	}
	if d.fracBeyond {
		return SpeculativeRetry{}, "the percentile has more than 4 decimals"
	}
	return SpeculativeRetry{kind: KindPercentile, pct: uint32(d.whole)*pctScale + d.frac}, ""
}
