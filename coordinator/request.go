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
	// NowInSec, if not 0, is the read's time in seconds since the Unix
	// epoch, at which every replica judges what has expired and which
	// tombstones may be purged; 0 takes the coordinator's clock when the
	// read starts. Every request of the read carries the same time.
	NowInSec int64
}

func (req Request) validate() error {
	switch {
	case req.Table == "":
		return fmt.Errorf("%w: empty table name", ErrInvalidRequest)
	case req.Key == "":
		return fmt.Errorf("%w: key may not be empty", ErrInvalidRequest)
	case req.Level == consistency.Any:
		return fmt.Errorf("%w: consistency level ANY cannot read; it is the zero Level: was Request.Level left unset?", ErrInvalidRequest)
	case req.NowInSec < 0:
		return fmt.Errorf("%w: negative read time %d", ErrInvalidRequest, req.NowInSec)
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
	// Partition is the reconciled data, tombstones included: empty (no
	// rows) when no replica holds the partition.
	Partition replica.Partition
	// NowInSec is the read's time, at which replicas purged what they
	// answered and Visible judges what is live.
	NowInSec int64
	Trace    Trace
}

// Visible returns what a client sees of the result: live rows and cells
// only, at the read's time (replica.Partition.Visible).
func (r Result) Visible() replica.View { return r.Partition.Visible(r.NowInSec) }
