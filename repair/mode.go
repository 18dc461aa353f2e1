package repair

import (
	"errors"
	"fmt"
	"strconv"
)

// Mode is a table's read-repair mode: what the coordinator does with the
// diffs of a read whose replicas disagreed. A Mode is a plain value, safe for
// concurrent use.
type Mode uint8

// The read-repair modes. The zero value is Blocking, the default.
const (
	// Blocking sends each stale replica its diff and returns the read only
	// when enough of them acknowledged to meet the consistency level, so
	// that quorum reads are monotonic (Cassandra's default).
	Blocking Mode = iota
	// None merges and returns the result but repairs nothing, so quorum
	// reads are not monotonic: a value that one replica holds and a read
	// returned may be missing from the next read, of two other replicas.
	None
	// Async sends the diffs in the background through a bounded queue; the
	// read does not wait for them, so quorum reads are not monotonic: a
	// later read may miss what this one returned until its repairs land, or
	// for good if one is dropped. Not in Cassandra.
	Async
)

// ErrUnknownMode is returned, wrapped, by ParseMode and Mode.UnmarshalText
// for a name that is no read-repair mode, and by MarshalText for an
// undefined Mode.
var ErrUnknownMode = errors.New("repair: unknown read repair mode")

var modeNames = [...]string{Blocking: "BLOCKING", None: "NONE", Async: "ASYNC"}

// Valid reports whether m is one of the defined modes.
func (m Mode) Valid() bool { return int(m) < len(modeNames) }

// String returns the mode's upper-case name, such as "BLOCKING". An
// undefined value prints as "Mode(7)".
func (m Mode) String() string {
	if !m.Valid() {
		return "Mode(" + strconv.Itoa(int(m)) + ")"
	}
	return modeNames[m]
}

// ParseMode parses a mode name in any ASCII letter case, such as "async".
// It does not trim white space.
func ParseMode(s string) (Mode, error) {
	for i, name := range modeNames {
		if sameNameASCII(s, name) {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownMode, s)
}

// sameNameASCII reports whether s spells the upper-case name in any ASCII
// letter case. Unicode folding is not applied: "ſ" (long s) is no "S".
func sameNameASCII(s, name string) bool {
	if len(s) != len(name) {
		return false
	}
	for i := range len(s) {
		if c := s[i]; c != name[i] && (c < 'a' || c > 'z' || c-('a'-'A') != name[i]) {
			return false
		}
	}
	return true
}

// MarshalText implements encoding.TextMarshaler with the mode's name.
func (m Mode) MarshalText() ([]byte, error) {
	if !m.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownMode, uint8(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseMode. On error
// m is left unchanged.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
