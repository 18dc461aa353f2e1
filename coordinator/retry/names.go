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

// marshalName is names[i], or, for a value with no name, an error wrapping
// sentinel: a name that would not parse back.
func marshalName(names []string, i uint8, sentinel error) ([]byte, error) {
	if int(i) >= len(names) {
		return nil, fmt.Errorf("%w %d", sentinel, i)
	}
	return []byte(names[i]), nil
}

// unmarshalName sets *v to the value named b (see parseName), or leaves it
// unchanged and returns the error.
func unmarshalName[T ~uint8](v *T, names []string, b []byte, sentinel error) error {
	x, err := parseName[T](names, string(b), sentinel)
	if err != nil {
		return err
	}
	*v = x
	return nil
}
