package replica

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnknownBoundKind is wrapped by ParseBoundKind's errors.
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
