package replica

import (
	"errors"
	"fmt"
)

// ErrTombstoneOverwhelming is matched by every *TombstoneOverwhelmingError.
var ErrTombstoneOverwhelming = errors.New("replica: tombstone overwhelming")

// TombstoneOverwhelmingError is a replica's refusal of a read whose scan met
// more tombstones than the command's TombstoneFailureThreshold (Cassandra's
// TombstoneOverwhelmingException, tombstone_failure_threshold): the replica
// stopped scanning at the first tombstone over it. It is not modified after
// it is returned, so it may be shared between goroutines.
type TombstoneOverwhelmingError struct {
	Table, Key string
	// Tombstones is how many the scan had met when it stopped: Threshold+1.
	Tombstones int
	Threshold  int
}

func (e *TombstoneOverwhelmingError) Error() string {
	return fmt.Sprintf("%s: read of partition %q of table %q met %d tombstones, more than the failure threshold %d",
		ErrTombstoneOverwhelming.Error(), e.Key, e.Table, e.Tombstones, e.Threshold)
}

// Is makes errors.Is(err, ErrTombstoneOverwhelming) hold.
func (e *TombstoneOverwhelmingError) Is(target error) bool { return target == ErrTombstoneOverwhelming }
