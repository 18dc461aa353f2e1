package repair

import (
	"bytes"
	"cmp"

	"github.com/readpath/readpath/replica"
)

// Reconcile returns the winner between two versions of one cell (their
// Column and Path fields are not compared: pass versions of the same
// cell), by Cassandra's rules:
//
//  1. the higher timestamp wins;
//  2. on a tie, a tombstone or an expiring cell beats a live, non-expiring one;
//  3. if both are tombstones or expiring, a tombstone beats an expiring cell,
//     and between two of a kind the higher local deletion time wins;
//  4. then the larger value as unsigned bytes (a prefix is smaller).
//
// Cells still tied but not equal as data (a different TTL, or a deletion time
// on a live cell) are ordered by TTL, then local deletion time, so that the
// winner never depends on the argument order. Reconcile is a pure function.
func Reconcile(a, b replica.Cell) replica.Cell {
	if compareCells(&a, &b) >= 0 {
		return a
	}
	return b
}

// Cell kinds in the order rules 2 and 3 rank them on a timestamp tie.
const (
	kindLive = iota
	kindExpiring
	kindTombstone
)

func kind(c *replica.Cell) int {
	switch {
	case c.Tombstone:
		return kindTombstone
	case c.IsExpiring():
		return kindExpiring
	}
	return kindLive
}

// compareCells is the total order behind Reconcile: positive when a wins.
func compareCells(a, b *replica.Cell) int {
	if c := cmp.Compare(a.Timestamp, b.Timestamp); c != 0 {
		return c
	}
	if a.Tombstone == b.Tombstone && a.TTL == b.TTL && a.LocalDeletionTime == b.LocalDeletionTime {
		// One kind and one expiry: only the values can differ. Replicas
		// that agree send such ties for every cell.
		return bytes.Compare(a.Value, b.Value)
	}
	ka, kb := kind(a), kind(b)
	if ka != kb {
		return cmp.Compare(ka, kb)
	}
	if ka != kindLive {
		// Two expiring cells are told apart by expiry before value, as in
		// Cassandra (CASSANDRA-14592): the value must not decide which lives.
		if c := cmp.Compare(a.LocalDeletionTime, b.LocalDeletionTime); c != 0 {
			return c
		}
	}
	if c := bytes.Compare(a.Value, b.Value); c != 0 {
		return c
	}
	if c := cmp.Compare(a.TTL, b.TTL); c != 0 {
		return c
	}
	return cmp.Compare(a.LocalDeletionTime, b.LocalDeletionTime)
}
