package repair

import (
	"errors"
	"strconv"
)

// ErrInvalidVersions is matched, through errors.Is, by every error Merge
// returns.
var ErrInvalidVersions = errors.New("repair: invalid versions")

// VersionsError says why Merge refused its versions: there were none, one
// has a different partition key from the first, or one fails
// replica.Partition.Validate. It is a plain value, never modified after
// Merge returns it, so it may be shared between goroutines.
type VersionsError struct {
	// Index is the position of the offending version among Merge's
	// arguments, or -1 when there were no versions at all.
	Index int
	// Reason says what is wrong, in words.
	Reason string
	// Err is the version's *replica.ValidationError when it failed
	// validation, so that errors.Is(err, replica.ErrInvalidPartition) holds.
	Err error
}

func (e *VersionsError) Error() string {
	msg := ErrInvalidVersions.Error() + ": "
	if e.Index >= 0 {
		msg += "version " + strconv.Itoa(e.Index) + ": "
	}
	msg += e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Is makes errors.Is(err, ErrInvalidVersions) hold.
func (e *VersionsError) Is(target error) bool { return target == ErrInvalidVersions }

// Unwrap returns the validation error, if any.
func (e *VersionsError) Unwrap() error { return e.Err }
