package replica

import (
	"errors"
	"fmt"
	"slices"

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
// NowInSec, a GCBefore after NowInSec (a negative gc_grace_seconds), an
// invalid Query (the error wraps its *QueryError), a negative
// TombstoneFailureThreshold, or a DigestVersion this build does not know.
func (cmd Command) Validate() error {
	switch {
	case cmd.NowInSec < 0:
		return &CommandError{Reason: fmt.Sprintf("negative read time %d", cmd.NowInSec)}
	case cmd.GCBefore > cmd.NowInSec:
		return &CommandError{Reason: fmt.Sprintf("gcBefore %d after the read time %d", cmd.GCBefore, cmd.NowInSec)}
	case cmd.TombstoneFailureThreshold < 0:
		return &CommandError{Reason: fmt.Sprintf("negative tombstone failure threshold %d", cmd.TombstoneFailureThreshold)}
	}
	if err := cmd.Query.Validate(); err != nil {
		return &CommandError{Reason: "query", Err: err}
	}
	if _, err := digest.Resolve(cmd.DigestVersion); err != nil {
		return &CommandError{Reason: "digest version", Err: err}
	}
	return nil
}

// Respond returns a replica's answer to cmd from stored, its version of the
// partition cmd.Key (Partition{Key: cmd.Key}, or the zero Partition, if it
// holds none; store a first write merged into Partition{Key: key}, though:
// repair.Merge refuses the zero Partition, whose key differs). It is the
// one definition of what a replica returns; an adapter's Read should call
// it. In order, as Cassandra's ReadCommand.executeLocally:
//
//  1. restrict stored to cmd.Query's slices (Partition.Restrict): the rows
//     in them, range tombstones clipped to them, the partition deletion and
//     the static row; the range tombstones written as repair.Merge writes
//     them (canonical bounds, Bound.AsStart and AsEnd, and touching ranges
//     of one deletion joined), so that deletions written differently
//     answer and digest alike;
//  2. project it to cmd.Columns (Partition.Project), as the scan of step 4
//     reaches each row, so that a limited read projects only what it scans;
//  3. purge it at cmd.NowInSec and cmd.GCBefore (Partition.Purge), and drop
//     what a deletion it keeps covers: a cell or liveness written no later
//     than a partition, range, row or complex deletion over it, and a
//     deletion no newer than one over it. Cassandra reconciles a replica's
//     memtables and sstables as it reads them, so a replica that keeps
//     covered data until it compacts answers, and digests, as one that
//     compacted it away;
//  4. scan it in the query's order, counting tombstones into
//     Response.Tombstones (see below) and live rows (Partition.LiveRows),
//     and stop after the Query.Limit-th live row: the rows after it are
//     dropped and range tombstones clipped to end at it (Partition.Limit),
//     so the answer covers exactly its slices up to that row;
//  5. for a digest-only command, digest that at cmd.DigestVersion
//     (Partition.DigestAt).
//
// The answer's rows are in ascending clustering order, even for a reversed
// query. The tombstones counted are those Cassandra's MetricRecording meets
// in the reconciled partition, which holds nothing that a deletion covers:
// each cell not live at NowInSec, in the static row and the rows (a
// tombstone, or a cell expired and not yet purged); once, a row with
// nothing live (no live cell, no live liveness) and no such cell that holds
// a row deletion, a complex deletion or expired liveness; and each range
// tombstone bound, where a bound at which one range ends and the next
// starts counts once. The partition deletion does not count, nor does what
// lies past the limit or what a deletion covers (a cell tombstone under a
// newer partition deletion, say). If the count exceeds
// cmd.TombstoneFailureThreshold (when not 0), Respond stops scanning and
// returns a *TombstoneOverwhelmingError.
//
// stored must be valid (Validate), as everything repair.Merge returns is:
// Respond does not check it again, and the coordinator validates every data
// answer. It returns a *CommandError for an invalid command, and a
// *ValidationError if stored is the partition of another key. It does not
// modify stored; a data answer may share memory with it, its rows and range
// tombstones (whole or in part) and its parts of a row's cells capped at
// their length: a client appending to them copies them. A row it shares
// whole shares that row's cells as stored holds them. With the zero Query,
// nil Columns, nothing to purge and nothing covered it allocates nothing; a
// selection of columns allocates its projection; a purge, or data covered,
// allocates, when it changes rows, the answer's list of rows and, for the
// cells of the rows it changes (an expired cell, a tombstone past gc grace),
// arrays each twice the one before, the first the size of the first such
// row's cells: a run of n changed rows costs O(log n) allocations and at
// most about twice their cells. It shares the other rows whole.
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
	p, s := cmd.answer(stored)
	if s.overwhelmed {
		return Response{}, &TombstoneOverwhelmingError{Table: cmd.Table, Key: cmd.Key, Tombstones: s.tombstones, Threshold: s.threshold}
	}
	if !cmd.DigestOnly {
		// The whole of stored's lists, too, when nothing cut them.
		p.Rows, p.RangeTombstones = slices.Clip(p.Rows), slices.Clip(p.RangeTombstones)
		return Response{Partition: p, Tombstones: s.tombstones}, nil
	}
	d, err := p.DigestAt(cmd.DigestVersion)
	return Response{Digest: d, Tombstones: s.tombstones}, err
}

// answer returns stored restricted, projected, limited, purged and without
// what a deletion covers for cmd, and the scan of the result that counted
// its tombstones.
//
// A read that purges nothing of what it returns, the common case, costs one
// scan: it counts, finds the limit and checks for purges in one pass over
// what the answer holds. Otherwise answer limits first, then purges what is
// left and scans that: the purge changes no row's liveness (it changes
// nothing a client sees), so the limit-th live row is the same either way,
// and the purge visits only what the answer holds. A column selection is
// projected row by row as the scan reaches each (projector), so that it
// too visits only what the answer holds. Either way a limit of 100 rows
// costs about the same in a partition of 100 rows or of 10,000 (and
// answerWindow keeps it so however many range tombstones or slices lie
// past the limit).
func (cmd Command) answer(stored Partition) (Partition, scan) {
	if p, s, ok := cmd.answerWindow(stored); ok {
		return p, s
	}
	return cmd.answerAll(stored)
}

// answerAll is answer over the whole of stored.
func (cmd Command) answerAll(stored Partition) (Partition, scan) {
	q := cmd.Query
	p := stored.Restrict(q)
	p.RangeTombstones = canonicalRanges(p.RangeTombstones)
	pr := newProjector(&p, cmd.Columns, q)
	s := cmd.scan()
	s.checkPurge, s.gc, s.proj = true, cmd.GCBefore, pr
	s.run(&p, q)
	if !s.needsPurge {
		return s.limited(p, q.Reversed), s
	}
	switch {
	case q.Limit > 0:
		l := scan{now: cmd.NowInSec, limit: q.Limit, proj: pr} // Partition.Limit's
		l.run(&p, q)
		p = l.limited(p, q.Reversed)
	case pr != nil:
		for pr.more() { // the purge takes every row
		}
		p.Rows = pr.ascending()
	}
	p = purger{now: cmd.NowInSec, gc: cmd.GCBefore, dropCovered: true}.partition(&p)
	s = cmd.scan()
	s.run(&p, q) // stops at p's last row in q's order if the limit cut p
	return p, s
}

// scan returns the scan of cmd's answer: its limit and threshold.
func (cmd Command) scan() scan {
	return scan{now: cmd.NowInSec, limit: cmd.Query.Limit, threshold: cmd.TombstoneFailureThreshold}
}
