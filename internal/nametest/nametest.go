// Package nametest checks, for the fuzz targets of the enums' ParseX
// functions, what a parser accepts against what their godocs promise: a
// name String prints, with its ASCII letters in any case, and nothing else.
// Its fold is its own, byte by byte, so that it shares no code, and no
// mistake, with the parsers it checks: strings.ToUpper, strings.ToLower and
// strings.EqualFold fold Unicode too (ſ and ı to S and I, the Kelvin sign
// to k), so an oracle built on them cannot see a parser that does.
package nametest

import (
	"errors"
	"fmt"
	"testing"
)

// EqualFold reports whether s equals name with the ASCII letters of both
// in any case. Any other byte, one of a multi-byte rune included, must be
// the same.
func EqualFold(s, name string) bool {
	if len(s) != len(name) {
		return false
	}
	for i := range len(s) {
		if lower(s[i]) != lower(name[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// Check fails t unless parse(s) is the value among values whose name s
// equals under EqualFold, with a nil error, or, when s equals none of their
// names, an error wrapping sentinel. The values are every value the parser
// names (its type's defined values, distinct names).
func Check[T interface {
	comparable
	fmt.Stringer
}](t testing.TB, s string, parse func(string) (T, error), sentinel error, values ...T) {
	t.Helper()
	got, err := parse(s)
	for _, v := range values {
		if EqualFold(s, v.String()) {
			if err != nil || got != v {
				t.Fatalf("parsing %q = %v, %v; want %v", s, got, err, v)
			}
			return
		}
	}
	if !errors.Is(err, sentinel) {
		t.Fatalf("parsing %q = %v, %v; want an error wrapping %q", s, got, err, sentinel)
	}
}
