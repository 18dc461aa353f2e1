package replica

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnknownBoundKind is wrapped by ParseBoundKind's errors, and by
// BoundKind.MarshalText's for an undefined kind.
var ErrUnknownBoundKind = errors.New("replica: unknown bound kind")

var boundKindNames = [...]string{
	BoundBottom:         "bottom",
	BoundInclusiveStart: "inclusive start",
	BoundExclusiveStart: "exclusive start",
	BoundInclusiveEnd:   "inclusive end",
	BoundExclusiveEnd:   "exclusive end",
	BoundTop:            "top",
}

// String returns a name such as "inclusive start", as the digest encoding's
// layout names the kinds (BoundKind(n) for an undefined kind).
func (k BoundKind) String() string {
	if int(k) >= len(boundKindNames) {
		return "BoundKind(" + strconv.Itoa(int(k)) + ")"
	}
	return boundKindNames[k]
}

// ParseBoundKind parses a name String returns, in any ASCII letter case.
func ParseBoundKind(s string) (BoundKind, error) {
	for i, name := range boundKindNames {
		// Equal lengths keep the folding to ASCII: "ſ" is no "s".
		if len(s) == len(name) && strings.EqualFold(s, name) {
			return BoundKind(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownBoundKind, s)
}

// MarshalText implements encoding.TextMarshaler with the kind's name, so
// that a Bound in JSON says "inclusive start", not 1. An undefined kind is
// an error wrapping ErrUnknownBoundKind.
func (k BoundKind) MarshalText() ([]byte, error) {
	if int(k) >= len(boundKindNames) {
		return nil, fmt.Errorf("%w %d", ErrUnknownBoundKind, uint8(k))
	}
	return []byte(boundKindNames[k]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseBoundKind.
// On error k is left unchanged.
func (k *BoundKind) UnmarshalText(b []byte) error {
	x, err := ParseBoundKind(string(b))
	if err != nil {
		return err
	}
	*k = x
	return nil
}
