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
	Clustering string // the row at fault, if any
	Column     string // the cell at fault, if any
	Reason     string
}

func (e *ValidationError) Error() string {
	where := fmt.Sprintf("partition %q", e.Key)
	if e.Clustering != "" || e.Column != "" {
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
// (so no key repeats), no negative TTL, no tombstone with a TTL or a value,
// and no negative deletion time. It returns a *ValidationError.
func (p *Partition) Validate() error {
	if p.Deletion.LocalDeletionTime < 0 {
		return &ValidationError{Key: p.Key, Reason: "negative partition local deletion time"}
	}
	for i := range p.Rows {
		r := &p.Rows[i]
		if i > 0 && p.Rows[i-1].Clustering >= r.Clustering {
			return &ValidationError{Key: p.Key, Clustering: r.Clustering, Reason: "rows out of order or duplicated"}
		}
		if err := validateRow(p.Key, r); err != nil {
			return err
		}
	}
	return nil
}

func validateRow(key string, r *Row) error {
	if r.Deletion.LocalDeletionTime < 0 {
		return &ValidationError{Key: key, Clustering: r.Clustering, Reason: "negative row local deletion time"}
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		if i > 0 && r.Cells[i-1].Column >= c.Column {
			return &ValidationError{Key: key, Clustering: r.Clustering, Column: c.Column, Reason: "cells out of order or duplicated"}
		}
		if reason := cellProblem(c); reason != "" {
			return &ValidationError{Key: key, Clustering: r.Clustering, Column: c.Column, Reason: reason}
		}
	}
	return nil
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
	}
	return ""
}
