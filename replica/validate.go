package replica

import (
	"errors"
	"fmt"
)

// ErrInvalidPartition is matched by every *ValidationError.
var ErrInvalidPartition = errors.New("replica: invalid partition")

// ValidationError says what is wrong with a partition and where.
type ValidationError struct {
	Key        string
	Row        bool   // a row is at fault: the one at Clustering
	Clustering string // the row at fault, if Row
	Column     string // the cell at fault, if any
	Reason     string
}

func (e *ValidationError) Error() string {
	where := fmt.Sprintf("partition %q", e.Key)
	if e.Row {
		where += fmt.Sprintf(" row %q", e.Clustering)
	}
	if e.Column != "" {
		where += fmt.Sprintf(" column %q", e.Column)
	}
	return "replica: invalid " + where + ": " + e.Reason
}

// Is makes errors.Is(err, ErrInvalidPartition) hold.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidPartition }

// Validate checks the invariants the rest of readpath relies on: rows
// strictly ordered by clustering key, cells strictly ordered by column name
// (so no key repeats), no empty row (one with neither cells nor a deletion,
// which a merge would drop), no negative TTL, no tombstone with a TTL or a
// value, a local deletion time on exactly the tombstones and expiring
// cells, and no negative deletion time. It returns a *ValidationError.
func (p Partition) Validate() error {
	if p.Deletion.LocalDeletionTime < 0 {
		return &ValidationError{Key: p.Key, Reason: "negative partition local deletion time"}
	}
	for i := range p.Rows {
		r := &p.Rows[i]
		if i > 0 && p.Rows[i-1].Clustering >= r.Clustering {
			return rowError(p.Key, r, "rows out of order or duplicated")
		}
		if err := validateRow(p.Key, r); err != nil {
			return err
		}
	}
	return nil
}

func validateRow(key string, r *Row) error {
	switch {
	case r.Deletion.LocalDeletionTime < 0:
		return rowError(key, r, "negative row local deletion time")
	case r.IsEmpty():
		return rowError(key, r, "empty row: no cells and no deletion")
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		reason := cellProblem(c)
		if i > 0 && r.Cells[i-1].Column >= c.Column {
			reason = "cells out of order or duplicated"
		}
		if reason != "" {
			return &ValidationError{Key: key, Row: true, Clustering: r.Clustering, Column: c.Column, Reason: reason}
		}
	}
	return nil
}

func rowError(key string, r *Row, reason string) error {
	return &ValidationError{Key: key, Row: true, Clustering: r.Clustering, Reason: reason}
}

func cellProblem(c *Cell) string {
	switch {
	case c.TTL < 0:
		return fmt.Sprintf("negative TTL %d", c.TTL)
	case c.LocalDeletionTime < 0:
		return "negative local deletion time"
	case c.Tombstone && c.TTL != 0:
		return "tombstone with a TTL"
	case c.Tombstone && len(c.Value) != 0:
		return "tombstone with a value"
	case c.TTL > 0 && c.LocalDeletionTime == 0:
		return "expiring cell without an expiry time"
	case !c.Tombstone && c.TTL == 0 && c.LocalDeletionTime != 0:
		return "live cell with a local deletion time"
	}
	return ""
}
