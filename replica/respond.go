package replica

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/digest"
)

// ErrInvalidCommand is matched by every *CommandError.
var ErrInvalidCommand = errors.New("replica: invalid command")

// CommandError says why a Command cannot be answered. An unknown digest
// version also matches digest.ErrUnknownVersion, through Err. It is not
// modified after it is returned, so it may be shared between goroutines.
type CommandError struct {
	Reason string
	Err    error
}

func (e *CommandError) Error() string {
	msg := ErrInvalidCommand.Error() + ": " + e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Is makes errors.Is(err, ErrInvalidCommand) hold.
func (e *CommandError) Is(target error) bool { return target == ErrInvalidCommand }

// Unwrap returns the underlying error, if any.
func (e *CommandError) Unwrap() error { return e.Err }

// Validate reports a *CommandError if cmd cannot be answered: a negative
// NowInSec, a GCBefore after NowInSec (a negative gc_grace_seconds), or a
// DigestVersion this build does not know.
func (cmd Command) Validate() error {
	switch {
	case cmd.NowInSec < 0:
		return &CommandError{Reason: fmt.Sprintf("negative read time %d", cmd.NowInSec)}
	case cmd.GCBefore > cmd.NowInSec:
		return &CommandError{Reason: fmt.Sprintf("gcBefore %d after the read time %d", cmd.GCBefore, cmd.NowInSec)}
	}
	if _, err := digest.Resolve(cmd.DigestVersion); err != nil {
		return &CommandError{Reason: "digest version", Err: err}
	}
	return nil
}

// Respond returns a replica's answer to cmd from stored, its version of the
// partition cmd.Key (the zero Partition if it holds none): stored purged at
// cmd.NowInSec and cmd.GCBefore (Partition.Purge), projected to cmd.Columns
// (Partition.Project), and for a digest-only command digested at
// cmd.DigestVersion (Partition.DigestAt). It is the one definition of what a
// replica returns; an adapter's Read should call it.
//
// stored must be valid (Validate), as everything repair.Merge returns is:
// Respond does not check it again, and the coordinator validates every data
// answer. It returns a *CommandError for an invalid command, and a
// *ValidationError if stored is the partition of another key. It does not
// modify stored; a data answer may share memory with it.
func (cmd Command) Respond(stored Partition) (Response, error) {
	if err := cmd.Validate(); err != nil {
		return Response{}, err
	}
	if stored.Key == "" && stored.IsEmpty() {
		stored.Key = cmd.Key
	}
	if stored.Key != cmd.Key {
		return Response{}, &ValidationError{Key: stored.Key, Reason: fmt.Sprintf("not the partition of key %q that the command reads", cmd.Key)}
	}
	p := stored.Project(cmd.Columns).Purge(cmd.NowInSec, cmd.GCBefore)
	if !cmd.DigestOnly {
		return Response{Partition: p}, nil
	}
	d, err := p.DigestAt(cmd.DigestVersion)
	return Response{Digest: d}, err
}
