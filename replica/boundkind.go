package replica

import (
	"errors"
	"strconv"

	"github.com/readpath/readpath/internal/enumname"
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
	return enumname.Parse[BoundKind](s, boundKindNames[:], ErrUnknownBoundKind)
}

// MarshalText implements encoding.TextMarshaler with the kind's name, so
// that a Bound in JSON says "inclusive start", not 1. An undefined kind is
// an error wrapping ErrUnknownBoundKind.
func (k BoundKind) MarshalText() ([]byte, error) {
	return enumname.Marshal(k, boundKindNames[:], ErrUnknownBoundKind)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseBoundKind.
// On error k is left unchanged.
func (k *BoundKind) UnmarshalText(b []byte) error { return enumname.Unmarshal(k, b, ParseBoundKind) }
