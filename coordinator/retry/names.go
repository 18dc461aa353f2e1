package retry

import (
	"fmt"
	"strings"
)

// parseName returns the index of s in names, compared in any ASCII letter
// case, or an error wrapping sentinel that quotes s. The names are ASCII, so
// an s of the same length in bytes that folds to one is ASCII too: Unicode
// folds such as the long s to S, which take two bytes, do not match.
func parseName[T ~uint8](names []string, s string, sentinel error) (T, error) {
	for i, name := range names {
		if len(s) == len(name) && strings.EqualFold(s, name) {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", sentinel, s)
}

// nameOf returns names[i], or kind(i) for a value with no name.
func nameOf(names []string, i uint8, kind string) string {
	if int(i) < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", kind, i)
}
