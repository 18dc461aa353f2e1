package replica

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrInvalidPartition is matched by every *ValidationError.
var ErrInvalidPartition = errors.New("replica: invalid partition")

// ValidationError says what is wrong with a partition and where. It is not
// modified after it is returned, so it may be shared between goroutines.
type ValidationError struct {
	Key        string
	Static     bool   // the static row is at fault
	Row        bool   // a row is at fault: the one at Clustering
	Clustering string // the row at fault, if Row
	Column     string // the cell or complex deletion at fault, if any
	Path       string // the cell at fault's path, if any
	Range      bool   // a range tombstone is at fault: the one at RangeIndex
	RangeIndex int
	Reason     string
}

func (e *ValidationError) Error() string {
	where := fmt.Sprintf("partition %q", e.Key)
	switch {
	case e.Static:
		where += " static row"
	case e.Row:
		where += fmt.Sprintf(" row %q", e.Clustering)
	case e.Range:
		where += fmt.Sprintf(" range tombstone %d", e.RangeIndex)
	}
	if e.Column != "" {
		where += fmt.Sprintf(" column %q", e.Column)
	}
	if e.Path != "" {
		where += fmt.Sprintf(" path %q", e.Path)
	}
	return "replica: invalid " + where + ": " + e.Reason
}

// Is makes errors.Is(err, ErrInvalidPartition) hold.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidPartition }

// Validate checks the invariants the rest of readpath relies on and returns
// a *ValidationError for the first it finds broken:
//
//   - a partition key that is not empty, as Cassandra refuses one ("Key may
//     not be empty"): no read can ask for it, so it was written and never
//     read;
//   - rows strictly ordered by clustering key; in each row, cells strictly
//     ordered by column name and path, complex deletions strictly by column
//     name; so no key repeats;
//   - no empty row (one holding nothing, which a merge would drop);
//   - a static row without clustering key, liveness or row deletion;
//   - range tombstones that start with a start bound, end with an end bound,
//     cover at least one clustering key, are ordered by start and do not
//     overlap (they may touch), and delete something;
//   - no negative TTL or deletion time; a tombstone has no TTL and no value;
//     a local deletion time on every expiring cell and on no other live one
//     (a tombstone's may be 0: deleted at the epoch, as Cassandra allows), an
//     expiring cell's no less than its TTL (it was written after the epoch,
//     so that expiring it yields a valid tombstone); an expiry on exactly
//     the expiring liveness; and no liveness with the TTL
//     2147483647 that Cassandra's materialized views use for expired
//     liveness, which readpath does not model;
//   - no TTL past MaxTTL, which Cassandra refuses ("ttl is too large");
//   - no timestamp of math.MinInt64 on a cell, liveness, or partition, row
//     or range deletion: Cassandra's "no timestamp" (LivenessInfo's
//     NO_TIMESTAMP, DeletionTime.LIVE's), which UpdateParameters refuses
//     for every write. A complex deletion may carry it: overwriting a
//     collection at math.MinInt64+1 deletes it at one microsecond before.
func (p Partition) Validate() error {
	if err := p.validateHead(); err != nil {
		return err
	}
	for i := range p.Rows {
		if err := p.validateRow(i); err != nil {
			return err
		}
	}
	return nil
}

// validateHead checks what p holds besides its rows.
func (p *Partition) validateHead() error {
	if p.Key == "" {
		return &ValidationError{Reason: "empty partition key"}
	}
	if p.Deletion.LocalDeletionTime < 0 {
		return &ValidationError{Key: p.Key, Reason: "negative partition local deletion time"}
	}
	if p.Deletion.MarkedForDeleteAt == noTimestamp {
		return &ValidationError{Key: p.Key, Reason: "partition deletion " + noTimestampReason}
	}
	if err := validateStatic(p.Key, &p.Static); err != nil {
		return err
	}
	return validateRanges(p.Key, p.RangeTombstones)
}

// validateRow checks p's row at index i, and its order after the row
// before it.
func (p *Partition) validateRow(i int) error {
	r := &p.Rows[i]
	if i > 0 && p.Rows[i-1].Clustering >= r.Clustering {
		return rowError(p.Key, r, "rows out of order or duplicated")
	}
	return validateRow(p.Key, r)
}

func validateStatic(key string, s *Row) error {
	reason := ""
	switch {
	case s.Clustering != "":
		reason = fmt.Sprintf("static row with clustering key %q", s.Clustering)
	case !s.Liveness.IsEmpty():
		reason = "static row with liveness: static cells have no primary-key liveness"
	case !s.Deletion.IsLive():
		reason = "static row with a row deletion: static cells are deleted by cell tombstones, complex deletions and the partition deletion"
	}
	if reason != "" {
		return &ValidationError{Key: key, Static: true, Reason: reason}
	}
	return validateContents(s, func(column, path, reason string) error {
		return &ValidationError{Key: key, Static: true, Column: column, Path: path, Reason: reason}
	})
}

func validateRow(key string, r *Row) error {
	reason := ""
	switch {
	case r.Deletion.LocalDeletionTime < 0:
		reason = "negative row local deletion time"
	case r.Deletion.MarkedForDeleteAt == noTimestamp:
		reason = "row deletion " + noTimestampReason
	case r.IsEmpty():
		reason = "empty row: no cells, liveness or deletions"
	default:
		reason = livenessProblem(r.Liveness)
	}
	if reason != "" {
		return rowError(key, r, reason)
	}
	return validateContents(r, func(column, path, reason string) error {
		return &ValidationError{Key: key, Row: true, Clustering: r.Clustering, Column: column, Path: path, Reason: reason}
	})
}

// validateContents checks a row's complex deletions and cells, reporting
// the first problem through fail.
func validateContents(r *Row, fail func(column, path, reason string) error) error {
	for i, cd := range r.ComplexDeletions {
		if reason := complexDeletionProblem(r.ComplexDeletions, i); reason != "" {
			return fail(cd.Column, "", reason)
		}
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		reason := ""
		// A plain live cell is valid but for its timestamp: spare it the call.
		if c.Tombstone || c.TTL != 0 || c.LocalDeletionTime != 0 || c.Timestamp == noTimestamp {
			reason = cellProblem(c)
		}
		if i > 0 { // compareCellKeys, inlined by hand: Validate runs on every merge
			prev := &r.Cells[i-1]
			if o := strings.Compare(prev.Column, c.Column); o > 0 || o == 0 && prev.Path >= c.Path {
				reason = "cells out of order or duplicated"
			}
		}
		if reason != "" {
			return fail(c.Column, c.Path, reason)
		}
	}
	return nil
}

func rowError(key string, r *Row, reason string) error {
	return &ValidationError{Key: key, Row: true, Clustering: r.Clustering, Reason: reason}
}

// noTimestamp is Cassandra's "no timestamp" (LivenessInfo.NO_TIMESTAMP,
// the markedForDeleteAt of DeletionTime.LIVE): Long.MIN_VALUE, which
// UpdateParameters refuses as the timestamp of any write.
const noTimestamp = math.MinInt64

const noTimestampReason = "at timestamp -9223372036854775808 (math.MinInt64): Cassandra's no-timestamp, which it refuses for a write"

func livenessProblem(l Liveness) string {
	switch {
	case l.Timestamp == noTimestamp:
		return "liveness " + noTimestampReason
	case l.TTL < 0:
		return fmt.Sprintf("liveness with negative TTL %d", l.TTL)
	case l.TTL == math.MaxInt32:
		return "liveness with TTL 2147483647, a materialized view's expired liveness: not supported"
	case l.TTL > MaxTTL:
		return "liveness " + ttlTooLarge(l.TTL)
	case l.ExpiresAt < 0:
		return "liveness with a negative expiry"
	case l.TTL > 0 && l.ExpiresAt == 0:
		return "expiring liveness without an expiry time"
	case l.TTL == 0 && l.ExpiresAt != 0:
		return "liveness with an expiry time but no TTL"
	}
	return ""
}

// MaxTTL is the largest TTL, in seconds, that Validate accepts on a cell or
// a row liveness: 20 years, Cassandra's Attributes.MAX_TTL, past which it
// refuses a write ("ttl is too large").
const MaxTTL int32 = 20 * 365 * 24 * 60 * 60

func ttlTooLarge(ttl int32) string {
	return fmt.Sprintf("TTL %d too large: the maximum is %d s (MaxTTL, 20 years, Cassandra's MAX_TTL)", ttl, MaxTTL)
}

func complexDeletionProblem(cds []ComplexDeletion, i int) string {
	switch cd := cds[i]; {
	case i > 0 && cds[i-1].Column >= cd.Column:
		return "complex deletions out of order or duplicated"
	case cd.Deletion.IsLive():
		return "complex deletion that deletes nothing"
	case cd.Deletion.LocalDeletionTime < 0:
		return "negative complex deletion local deletion time"
	}
	return ""
}

func cellProblem(c *Cell) string {
	switch {
	case c.Timestamp == noTimestamp:
		return "cell " + noTimestampReason
	case c.TTL < 0:
		return fmt.Sprintf("negative TTL %d", c.TTL)
	case c.LocalDeletionTime < 0:
		return "negative local deletion time"
	case c.Tombstone && c.TTL != 0:
		return "tombstone with a TTL"
	case c.TTL > MaxTTL:
		return "cell " + ttlTooLarge(c.TTL)
	case c.Tombstone && len(c.Value) != 0:
		return "tombstone with a value"
	case c.TTL > 0 && c.LocalDeletionTime == 0:
		return "expiring cell without an expiry time"
	case !c.Tombstone && c.TTL > 0 && c.LocalDeletionTime < int64(c.TTL):
		return fmt.Sprintf("expiring cell with expiry %d less than its TTL %d: written before the epoch", c.LocalDeletionTime, c.TTL)
	case !c.Tombstone && c.TTL == 0 && c.LocalDeletionTime != 0:
		return "live cell with a local deletion time"
	}
	return ""
}

func validateRanges(key string, rts []RangeTombstone) error {
	for i := range rts {
		reason := rangeProblem(&rts[i])
		if reason == "" && i > 0 && rts[i].Start.Compare(rts[i-1].End) < 0 {
			reason = "range tombstones out of order or overlapping"
		}
		if reason != "" {
			return &ValidationError{Key: key, Range: true, RangeIndex: i, Reason: reason}
		}
	}
	return nil
}

func rangeProblem(rt *RangeTombstone) string {
	switch {
	case !rt.Start.IsStart():
		return fmt.Sprintf("range tombstone starting with %v, not a start bound", rt.Start)
	case !rt.End.IsEnd():
		return fmt.Sprintf("range tombstone ending with %v, not an end bound", rt.End)
	case (rt.Start.Kind == BoundBottom && rt.Start.Clustering != "") || (rt.End.Kind == BoundTop && rt.End.Clustering != ""):
		return "open bound with a clustering key"
	case rt.isEmpty():
		return fmt.Sprintf("range tombstone %v, %v covers no clustering key", rt.Start, rt.End)
	case rt.Deletion.IsLive():
		return "range tombstone that deletes nothing"
	case rt.Deletion.LocalDeletionTime < 0:
		return "negative range tombstone local deletion time"
	case rt.Deletion.MarkedForDeleteAt == noTimestamp:
		return "range tombstone " + noTimestampReason
	}
	return ""
}
