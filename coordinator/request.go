package coordinator

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// ErrInvalidRequest is wrapped by the error of a read whose Request is
// unusable: no table, or a level that cannot read.
var ErrInvalidRequest = errors.New("coordinator: invalid request")

// Request is one read of one partition.
type Request struct {
	Table string
	Key   string
	Level consistency.Level
	// Columns, if not nil, reads only these columns.
	Columns []string
}

func (req Request) validate() error {
	if req.Table == "" {
		return fmt.Errorf("%w: empty table name", ErrInvalidRequest)
	}
	if err := req.Level.ValidateForRead(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	return nil
}

// Result is what a successful read returns.
type Result struct {
	// Partition is the reconciled data: empty (no rows) when no replica
	// holds the partition.
	Partition replica.Partition
	Trace     Trace
}
