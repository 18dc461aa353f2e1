package replica

import (
	"bytes"
	"strings"
)

// Cell is one column's value in a row, or in a complex column (a
// collection, a non-frozen user-defined type) one element's.
//
// A live cell has a value and, if TTL > 0, expires: LocalDeletionTime is then
// its expiry time, and from that second on (Partition.Purge, Visible) it is a
// tombstone. A tombstone (Tombstone true) records a deletion of the cell at
// Timestamp, made at LocalDeletionTime; its Value is empty.
//
// Counters are out of scope: a counter cell's value is a set of shards that
// add up, not a value that the newest write replaces, and readpath would
// reconcile it by timestamp like any other value.
//
// A Cell is a plain value; sharing one between goroutines is safe as long
// as nobody modifies its Value.
type Cell struct {
	Column string
	// Path addresses the cell within a complex column: a map's key, a set's
	// element, a list element's time UUID, a user type's field. It is empty
	// in a simple column. A column's cells order by Path as unsigned bytes,
	// not by the collection's key type as Cassandra's comparator does: encode
	// paths so that their bytes sort as their values (a time UUID's raw
	// bytes do not; its timestamp, most significant part first, does).
	Path  string
	Value []byte
	// Timestamp is the write time in microseconds since the Unix epoch.
	Timestamp int64
	// LocalDeletionTime is in seconds since the Unix epoch: when a tombstone
	// was written or when an expiring cell expires; 0 for other cells.
	LocalDeletionTime int64
	// TTL is the time to live in seconds; 0 means the cell does not expire.
	TTL       int32
	Tombstone bool
}

// Live returns a cell holding value, written at ts (microseconds).
func Live(column, value string, ts int64) Cell {
	return LiveBytes(column, []byte(value), ts)
}

// LiveBytes is Live with a value of bytes, which the cell shares.
func LiveBytes(column string, value []byte, ts int64) Cell {
	return Cell{Column: column, Value: value, Timestamp: ts}
}

// Expiring returns a cell holding value, written at ts (microseconds) with a
// time to live of ttl seconds, expiring at expiresAt (seconds since the Unix
// epoch).
func Expiring(column, value string, ts int64, ttl int32, expiresAt int64) Cell {
	return ExpiringBytes(column, []byte(value), ts, ttl, expiresAt)
}

// ExpiringBytes is Expiring with a value of bytes, which the cell shares.
func ExpiringBytes(column string, value []byte, ts int64, ttl int32, expiresAt int64) Cell {
	return Cell{Column: column, Value: value, Timestamp: ts, TTL: ttl, LocalDeletionTime: expiresAt}
}

// Tombstone returns the deletion of column at ts (microseconds), made at
// localDeletionTime (seconds).
func Tombstone(column string, ts, localDeletionTime int64) Cell {
	return Cell{Column: column, Timestamp: ts, LocalDeletionTime: localDeletionTime, Tombstone: true}
}

// WithPath returns c addressed by path within its complex column, as in
// replica.Live("tags", "", ts).WithPath("red") for the element "red" of a
// set, or replica.Live("prefs", "dark", ts).WithPath("theme") for a map.
func (c Cell) WithPath(path string) Cell {
	c.Path = path
	return c
}

// IsExpiring reports whether c is a live cell with a time to live.
func (c Cell) IsExpiring() bool { return !c.Tombstone && c.TTL > 0 }

// IsLive reports whether c holds a value at nowInSec (seconds since the
// epoch): it is no tombstone and, if it expires, nowInSec is before its
// expiry. Deletions that shadow c are not considered.
func (c Cell) IsLive(nowInSec int64) bool {
	return !c.Tombstone && (c.TTL <= 0 || nowInSec < c.LocalDeletionTime)
}

// Equal reports whether c and o are the same data. A nil and an empty value
// are equal.
func (c Cell) Equal(o Cell) bool {
	return c.Column == o.Column && c.Path == o.Path && c.Timestamp == o.Timestamp && c.TTL == o.TTL &&
		c.LocalDeletionTime == o.LocalDeletionTime && c.Tombstone == o.Tombstone &&
		bytes.Equal(c.Value, o.Value)
}

// compareCellKeys orders cells by column name, then by path, as unsigned
// bytes: the order of a row's Cells.
func compareCellKeys(a, b *Cell) int {
	if c := strings.Compare(a.Column, b.Column); c != 0 {
		return c
	}
	if a.Path == b.Path {
		return 0
	}
	return strings.Compare(a.Path, b.Path)
}

// clone returns c with its own copy of Value.
func (c Cell) clone() Cell {
	if c.Value != nil {
		c.Value = append([]byte{}, c.Value...)
	}
	return c
}
