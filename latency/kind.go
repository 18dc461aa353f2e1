package latency

import (
	"fmt"
	"strconv"

	"github.com/readpath/readpath/internal/enumname"
)

// Kind is the shape of a speculative retry policy. It is a plain value,
// safe for concurrent use.
type Kind uint8

// The kinds of speculative retry policy. The zero Kind is none of them.
const (
	KindNever      Kind = iota + 1 // never speculate
	KindAlways                     // send the extra request up front
	KindPercentile                 // speculate after a percentile of recent latency
	KindFixed                      // speculate after a fixed delay
	KindMin                        // the smaller of a percentile and a fixed delay
	KindMax                        // the larger of a percentile and a fixed delay
)

var kindNames = [...]string{
	KindNever:      "NEVER",
	KindAlways:     "ALWAYS",
	KindPercentile: "PERCENTILE",
	KindFixed:      "FIXED",
	KindMin:        "MIN",
	KindMax:        "MAX",
}

// String returns the upper-case name, such as "PERCENTILE"; an undefined
// value prints as "Kind(9)".
func (k Kind) String() string {
	if k == 0 || int(k) >= len(kindNames) {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// ParseKind parses a Kind's name in any letter case, without trimming.
func ParseKind(s string) (Kind, error) {
	for k := KindNever; int(k) < len(kindNames); k++ {
		if equalFoldASCII(s, kindNames[k]) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownKind, s)
}

// MarshalText implements encoding.TextMarshaler with the kind's name, so
// that JSON says "PERCENTILE", not 3. The zero or an undefined Kind, which
// has no name, is an error wrapping ErrUnknownKind.
func (k Kind) MarshalText() ([]byte, error) {
	return enumname.Marshal(k, kindNames[:], ErrUnknownKind)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseKind. On
// error k is left unchanged.
func (k *Kind) UnmarshalText(b []byte) error { return enumname.Unmarshal(k, b, ParseKind) }
