package consistency

import (
	"errors"
	"fmt"
	"strconv"
)

// WriteType is the kind of write that timed out or failed, as Cassandra
// reports it. Retry policies decide by it: a BATCH_LOG write is safe to retry,
// a COUNTER write is not.
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

// ErrUnknownWriteType is returned, wrapped, by ParseWriteType.
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

// String returns the protocol name, such as "UNLOGGED_BATCH".
func (w WriteType) String() string {
	if int(w) >= len(writeTypeNames) {
		return "WriteType(" + strconv.Itoa(int(w)) + ")"
	}
	return writeTypeNames[w]
}

// ParseWriteType parses a protocol name in any letter case.
func ParseWriteType(s string) (WriteType, error) {
	for i, name := range writeTypeNames {
		if equalFoldASCII(s, name) {
			return WriteType(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownWriteType, s)
}
