package consistency

import (
	"errors"
	"fmt"
	"strconv"
)

// WriteType is the kind of write that timed out or failed, as Cassandra
// reports it. Retry policies decide by it: a BATCH_LOG write is safe to retry,
// a COUNTER write is not. It is a plain value, safe for concurrent use.
type WriteType uint8

// The write types of Cassandra's native protocol.
const (
	WriteSimple WriteType = iota
	WriteBatch
	WriteUnloggedBatch
	WriteCounter
	WriteBatchLog
	WriteCAS
	WriteView
	WriteCDC
)

// ErrUnknownWriteType is returned, wrapped, by ParseWriteType and
// WriteType.UnmarshalText for a name that is no write type, and by
// WriteType.MarshalText for an undefined WriteType.
var ErrUnknownWriteType = errors.New("consistency: unknown write type")

var writeTypeNames = [...]string{
	WriteSimple:        "SIMPLE",
	WriteBatch:         "BATCH",
	WriteUnloggedBatch: "UNLOGGED_BATCH",
	WriteCounter:       "COUNTER",
	WriteBatchLog:      "BATCH_LOG",
	WriteCAS:           "CAS",
	WriteView:          "VIEW",
	WriteCDC:           "CDC",
}

// WriteTypes returns every write type in protocol order, in a new slice
// that the caller may modify.
func WriteTypes() []WriteType {
	ws := make([]WriteType, len(writeTypeNames))
	for i := range ws {
		ws[i] = WriteType(i)
	}
	return ws
}

// Valid reports whether w is one of the defined write types.
func (w WriteType) Valid() bool { return int(w) < len(writeTypeNames) }

// String returns the protocol name, such as "UNLOGGED_BATCH". An undefined
// value prints as "WriteType(42)".
func (w WriteType) String() string {
	if !w.Valid() {
		return "WriteType(" + strconv.Itoa(int(w)) + ")"
	}
	return writeTypeNames[w]
}

// ParseWriteType parses a protocol name in any letter case, such as
// "unlogged_batch". It does not trim white space.
func ParseWriteType(s string) (WriteType, error) {
	for i, name := range writeTypeNames {
		if equalFoldASCII(s, name) {
			return WriteType(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownWriteType, s)
}

// MarshalText implements encoding.TextMarshaler with the protocol name.
// An undefined WriteType is an error wrapping ErrUnknownWriteType.
func (w WriteType) MarshalText() ([]byte, error) {
	if !w.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownWriteType, uint8(w))
	}
	return []byte(w.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseWriteType. On
// error w is left unchanged.
func (w *WriteType) UnmarshalText(b []byte) error {
	v, err := ParseWriteType(string(b))
	if err != nil {
		return err
	}
	*w = v
	return nil
}
