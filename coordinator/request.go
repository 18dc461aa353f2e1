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
	switch {
	case req.Table == "":
		return fmt.Errorf("%w: empty table name", ErrInvalidRequest)
	case req.Key == "":
		return fmt.Errorf("%w: key may not be empty", ErrInvalidRequest)
	case req.Level == consistency.Any:
		return fmt.Errorf("%w: consistency level ANY cannot read; it is the zero Level: was Request.Level left unset?", ErrInvalidRequest)
	case req.Level.IsSerial():
		return fmt.Errorf("%w: a read at %s needs a Paxos round, which readpath does not run; read at QUORUM or LOCAL_QUORUM, or through your engine's Paxos", ErrInvalidRequest, req.Level)
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
