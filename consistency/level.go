package consistency

import (
	"errors"
	"fmt"
	"strconv"
)

// Level is a consistency level. Its numeric value is the level's code in
// Cassandra's native protocol, so it can be put on the wire as is. It is
// a plain value, safe for concurrent use.
type Level uint8

// The consistency levels, numbered as in Cassandra's native protocol.
const (
	Any         Level = 0
	One         Level = 1
	Two         Level = 2
	Three       Level = 3
	Quorum      Level = 4
	All         Level = 5
	LocalQuorum Level = 6
	EachQuorum  Level = 7
	Serial      Level = 8
	LocalSerial Level = 9
	LocalOne    Level = 10
)

// ErrUnknownLevel is returned, wrapped, by ParseLevel and
// Level.UnmarshalText for a name that is no consistency level, and by
// Level.MarshalText for an undefined Level.
var ErrUnknownLevel = errors.New("consistency: unknown consistency level")

// ErrUnsupportedLevel is returned, wrapped, when a level cannot be used for an
// operation, such as reading at ANY.
var ErrUnsupportedLevel = errors.New("consistency: unsupported consistency level")

var levelNames = [...]string{
	Any:         "ANY",
	One:         "ONE",
	Two:         "TWO",
	Three:       "THREE",
	Quorum:      "QUORUM",
	All:         "ALL",
	LocalQuorum: "LOCAL_QUORUM",
	EachQuorum:  "EACH_QUORUM",
	Serial:      "SERIAL",
	LocalSerial: "LOCAL_SERIAL",
	LocalOne:    "LOCAL_ONE",
}

// Levels returns every consistency level in protocol-code order, in a new
// slice that the caller may modify.
func Levels() []Level {
	ls := make([]Level, len(levelNames))
	for i := range ls {
		ls[i] = Level(i)
	}
	return ls
}

// Valid reports whether l is one of the defined levels.
func (l Level) Valid() bool { return int(l) < len(levelNames) }

// String returns the canonical upper-case name, such as "LOCAL_QUORUM".
// An undefined value prints as "Level(42)".
func (l Level) String() string {
	if !l.Valid() {
		return "Level(" + strconv.Itoa(int(l)) + ")"
	}
	return levelNames[l]
}

// ParseLevel parses a canonical level name in any letter case, such as
// "local_quorum". It does not trim white space.
func ParseLevel(s string) (Level, error) {
	for i, name := range levelNames {
		if equalFoldASCII(s, name) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownLevel, s)
}

// MarshalText implements encoding.TextMarshaler with the canonical name.
// An undefined Level is an error wrapping ErrUnknownLevel.
func (l Level) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownLevel, uint8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseLevel. On error
// l is left unchanged.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// IsDatacenterLocal reports whether the level counts only replicas in the
// coordinator's datacenter: LOCAL_ONE, LOCAL_QUORUM and LOCAL_SERIAL.
func (l Level) IsDatacenterLocal() bool {
	return l == LocalOne || l == LocalQuorum || l == LocalSerial
}

// IsSerial reports whether the level is a Paxos level: SERIAL or LOCAL_SERIAL.
func (l Level) IsSerial() bool { return l == Serial || l == LocalSerial }

// ValidateForRead returns an error wrapping ErrUnsupportedLevel for a level
// that cannot serve a read: ANY, which exists for writes only, and any
// undefined value, whose error also wraps ErrUnknownLevel. It accepts the
// serial levels, as Cassandra does (a Paxos read); coordinator.Read, which
// runs no Paxos, refuses them too.
func (l Level) ValidateForRead() error {
	switch {
	case !l.Valid():
		return fmt.Errorf("%w %s: %w", ErrUnknownLevel, l, ErrUnsupportedLevel)
	case l == Any:
		return fmt.Errorf("%w: ANY ConsistencyLevel is only supported for writes", ErrUnsupportedLevel)
	}
	return nil
}
