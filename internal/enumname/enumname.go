// Package enumname names the values of the library's small enums, each a
// uint8 with a table of names: a value's name, a name parsed back in any
// ASCII letter case, and both as text for JSON. A value whose name is ""
// or past the table has none.
package enumname

import (
	"fmt"
	"strconv"
	"strings"
)

// Of is v's name, or typ(v) for a value past names: a String method must
// not panic on a value of its type.
func Of[T ~uint8](v T, names []string, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// Parse returns the value named s in names, compared in any ASCII letter
// case, or an error wrapping sentinel that quotes s. The names are ASCII,
// so a string of their length in bytes that folds to one is ASCII too:
// a Unicode fold such as the long s to S, or the Kelvin sign to k, changes
// the length and does not match. A "" name matches only "".
func Parse[T ~uint8](s string, names []string, sentinel error) (T, error) {
	for i, name := range names {
		if len(s) == len(name) && strings.EqualFold(s, name) {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", sentinel, s)
}

// Marshal is v's name, for encoding.TextMarshaler, or for a value with
// none an error wrapping sentinel: a name that would not parse back.
func Marshal[T ~uint8](v T, names []string, sentinel error) ([]byte, error) {
	if int(v) >= len(names) || names[v] == "" {
		return nil, fmt.Errorf("%w %d", sentinel, uint8(v))
	}
	return []byte(names[v]), nil
}

// Unmarshal sets *v to parse's value of b, for encoding.TextUnmarshaler,
// or leaves it unchanged and returns parse's error.
func Unmarshal[T any](v *T, b []byte, parse func(string) (T, error)) error {
	x, err := parse(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}
