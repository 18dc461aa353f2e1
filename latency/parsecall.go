package latency

import (
	"strconv"
	"strings"
)

// parseCall parses what follows MIN or MAX: "(<a>,<b>)", one percentile and
// one fixed delay in either order, white space allowed only around the
// comma. Its reasons say which part is wrong, since a hand-written policy
// that is off by a parenthesis is the usual mistake.
func parseCall(k Kind, rest string) (SpeculativeRetry, string) {
	args, reason := cutParens(k.String(), rest)
	if reason != "" {
		return SpeculativeRetry{}, reason
	}
	return parseHybrid(k, args)
}

// cutParens returns the text between the parentheses that rest, the text
// after the name, must consist of.
func cutParens(name, rest string) (string, string) {
	last := strings.LastIndexByte(rest, ')')
	switch {
	case rest == "":
		return "", name + " needs two arguments in parentheses, as in " + name + "(99p,50ms)"
	case strings.TrimLeft(rest, whiteSpace) != rest && strings.TrimLeft(rest, whiteSpace)[0] == '(':
		return "", "no white space is allowed between " + name + " and '('"
	case rest[0] != '(':
		return "", name + " must be followed by '('"
	case last < 0:
		return "", name + " is missing its closing ')'"
	case last != len(rest)-1:
		return "", strconv.Quote(rest[last+1:]) + " follows the closing ')'"
	}
	return rest[1:last], ""
}

// parseHybrid parses the arguments of MIN or MAX.
func parseHybrid(k Kind, args string) (SpeculativeRetry, string) {
	name := k.String()
	switch {
	case strings.Contains(args, "("):
		return SpeculativeRetry{}, name + "'s arguments are a percentile and a fixed delay, not calls"
	case strings.Contains(args, ")"):
		return SpeculativeRetry{}, name + " has one ')' too many"
	}
	fields := strings.Split(args, ",")
	if len(fields) == 1 {
		return SpeculativeRetry{}, name + " needs two arguments, separated by a comma"
	}
	if len(fields) > 2 {
		return SpeculativeRetry{}, name + " takes two arguments, not " + strconv.Itoa(len(fields))
	}
	x, reason := parseArg(name, "first", fields[0], strings.TrimRight(fields[0], whiteSpace))
	if reason != "" {
		return SpeculativeRetry{}, reason
	}
	y, reason := parseArg(name, "second", fields[1], strings.TrimLeft(fields[1], whiteSpace))
	if reason != "" {
		return SpeculativeRetry{}, reason
	}
	if x.kind == KindFixed {
		x, y = y, x
	}
	if x.kind != KindPercentile || y.kind != KindFixed {
		return SpeculativeRetry{}, name + " needs one percentile and one fixed delay"
	}
	return SpeculativeRetry{kind: k, pct: x.pct, fixed: y.fixed}, ""
}

// parseArg parses one argument of MIN or MAX: raw as written, trimmed
// without the white space allowed beside the comma.
func parseArg(name, which, raw, trimmed string) (SpeculativeRetry, string) {
	what := name + "'s " + which + " argument"
	switch {
	case strings.Trim(raw, whiteSpace) == "":
		return SpeculativeRetry{}, what + " is missing"
	case strings.Trim(trimmed, whiteSpace) != trimmed:
		return SpeculativeRetry{}, "white space is allowed only around the comma"
	}
	p, reason := parseSimple(trimmed)
	switch reason {
	case "":
		return p, ""
	case notAPolicy:
		return p, what + " " + strconv.Quote(trimmed) + " is not a percentile (99p) or a fixed delay (50ms)"
	}
	return p, what + ": " + reason
}
