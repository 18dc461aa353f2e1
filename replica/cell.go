package replica

import "bytes"

// Cell is one column's value in a row.
//
// A live cell has a value and, if TTL > 0, expires: LocalDeletionTime is then
// its expiry time. A tombstone (Tombstone true) records a deletion of the
// column at Timestamp, made at LocalDeletionTime; its Value is empty.
// Expiry is not evaluated against a clock here: an expiring cell is
// reconciled as an expiring cell whether or not its time has passed.
type Cell struct {
	Column string
	Value  []byte
	// Timestamp is the write time in microseconds since the Unix epoch.
	Timestamp int64
	// TTL is the time to live in seconds; 0 means the cell does not expire.
	TTL int32
	// LocalDeletionTime is in seconds since the Unix epoch: when a tombstone
	// was written or when an expiring cell expires; 0 for other cells.
	LocalDeletionTime int64
	Tombstone         bool
}

// Live returns a cell holding value, written at ts (microseconds).
func Live(column, value string, ts int64) Cell {
	return Cell{Column: column, Value: []byte(value), Timestamp: ts}
}

// Expiring returns a cell holding value, written at ts with a time to live of
// ttl seconds, expiring at expiresAt (seconds since the Unix epoch).
func Expiring(column, value string, ts int64, ttl int32, expiresAt int64) Cell {
	return Cell{Column: column, Value: []byte(value), Timestamp: ts, TTL: ttl, LocalDeletionTime: expiresAt}
}

// Tombstone returns the deletion of column at ts (microseconds), made at
// localDeletionTime (seconds).
func Tombstone(column string, ts, localDeletionTime int64) Cell {
	return Cell{Column: column, Timestamp: ts, LocalDeletionTime: localDeletionTime, Tombstone: true}
}

// IsExpiring reports whether c is a live cell with a time to live.
func (c Cell) IsExpiring() bool { return !c.Tombstone && c.TTL > 0 }

// Equal reports whether c and o are the same data. A nil and an empty value
// are equal.
func (c Cell) Equal(o Cell) bool {
	return c.Column == o.Column && c.Timestamp == o.Timestamp && c.TTL == o.TTL &&
		c.LocalDeletionTime == o.LocalDeletionTime && c.Tombstone == o.Tombstone &&
		bytes.Equal(c.Value, o.Value)
}

// clone returns c with its own copy of Value.
func (c Cell) clone() Cell {
	if c.Value != nil {
		c.Value = append([]byte{}, c.Value...)
	}
	return c
}
