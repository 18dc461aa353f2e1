package retry

import (
	"errors"

	"github.com/readpath/readpath/internal/enumname"
)

// Idempotence says whether applying a statement twice has the same effect as
// applying it once. It is a tri-state so that "the application did not say"
// can be told apart from "the application said no". It is a plain value,
// safe for concurrent use.
type Idempotence uint8

// The idempotence states.
const (
	// IdempotenceUnset is the zero value: the executor applies its
	// DefaultIdempotent setting, which is false.
	IdempotenceUnset Idempotence = iota
	// Idempotent statements may be retried after any failure and may be
	// executed speculatively.
	Idempotent
	// NotIdempotent statements are retried only when the failure proves that
	// nothing was applied (read timeouts, unavailable errors and ErrNotSent).
	NotIdempotent
)

// ErrUnknownIdempotence is returned, wrapped, by ParseIdempotence, and by
// Idempotence.MarshalText for an undefined value.
var ErrUnknownIdempotence = errors.New("retry: unknown idempotence")

var idempotenceNames = []string{
	IdempotenceUnset: "UNSET",
	Idempotent:       "IDEMPOTENT",
	NotIdempotent:    "NOT_IDEMPOTENT",
}

// String returns "UNSET", "IDEMPOTENT" or "NOT_IDEMPOTENT".
func (i Idempotence) String() string { return enumname.Of(i, idempotenceNames, "Idempotence") }

// ParseIdempotence parses a name String returns, in any letter case.
func ParseIdempotence(s string) (Idempotence, error) {
	return enumname.Parse[Idempotence](s, idempotenceNames, ErrUnknownIdempotence)
}

// MarshalText implements encoding.TextMarshaler with the state's name, so
// that JSON writes it as "IDEMPOTENT", not a number. An undefined value is
// an error wrapping ErrUnknownIdempotence.
func (i Idempotence) MarshalText() ([]byte, error) {
	return enumname.Marshal(i, idempotenceNames, ErrUnknownIdempotence)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseIdempotence.
// On error i is left unchanged.
func (i *Idempotence) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(i, b, ParseIdempotence)
}

// Valid reports whether i is one of the three states.
func (i Idempotence) Valid() bool { return int(i) < len(idempotenceNames) }

// Resolve returns Idempotent or NotIdempotent, replacing IdempotenceUnset
// with def.
func (i Idempotence) Resolve(def bool) Idempotence {
	if i != IdempotenceUnset {
		return i
	}
	if def {
		return Idempotent
	}
	return NotIdempotent
}
