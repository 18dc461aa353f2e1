package coordinator

import (
	"errors"
	"fmt"
	"slices"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/typednil"
	"github.com/readpath/readpath/replica"
)

// ErrWrongKey is wrapped by the failure of a replica that answered a data
// read with a partition of another key.
var ErrWrongKey = errors.New("coordinator: replica answered with the wrong partition")

// PanicError is the failure recorded for a replica whose Read or Apply
// panicked, or called runtime.Goexit (Value then says so). The
// coordinator recovers the panic; the read goes on without that replica.
// It is not modified once made and is safe for concurrent reads.
type PanicError struct {
	Endpoint replica.Endpoint
	Value    any
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("coordinator: replica %s panicked: %v", e.Endpoint.ID, e.Value)
}

// Unwrap returns Value if it is an error (a runtime.Error, or an error a
// replica panicked with), so that errors.Is and errors.As see it; or, if
// Value is or wraps a nil pointer of an error type (panic((*E)(nil)), E an
// error), whose methods would dereference nil, an error wrapping
// retry.ErrTypedNil that names the type. A value that is no error (a
// string, a nil *T of another type) unwraps to nil.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	if bad := typednil.Find(err); bad != nil {
		return fmt.Errorf("coordinator: replica %s panicked with a nil %T: %w", e.Endpoint.ID, bad, retry.ErrTypedNil)
	}
	return err
}

// RepairWriteError is the failure reason recorded for a replica whose
// read-repair write (or additional write) failed. A BLOCKING repair's round
// that such failures leave short of blockFor fails the read with a
// *consistency.ReadFailureError holding it among its reasons, so that
// errors.As tells a failed repair write from a failed read of the same
// replica. Err is the replica's error (or a *PanicError). It is not modified
// once made and is safe for concurrent reads.
type RepairWriteError struct {
	Endpoint replica.Endpoint
	Err      error
}

func (e *RepairWriteError) Error() string {
	return fmt.Sprintf("coordinator: read repair write to %s: %v", e.Endpoint.ID, e.Err)
}

// Unwrap returns the replica's error, so that errors.Is and errors.As see
// what made the write fail.
func (e *RepairWriteError) Unwrap() error { return e.Err }

// reasonOf is the failure reason a request of kind k to a that failed
// leaves: a repair write's says that it was one, as the replica's error
// alone reads like a failed read. It allocates only for a failure.
func reasonOf(k RequestKind, a *call) error {
	if k == KindRepair {
		return &RepairWriteError{Endpoint: a.cand.ep, Err: a.err}
	}
	return a.err
}

// ErrOutsideQuery is wrapped by the failure of a replica whose data answer
// holds a row or a range tombstone its query's slices do not select: a
// replica (or a transport that lost the slices) that did so would hand the
// client rows it never asked for, repair them, or deletions of rows the
// read never saw, onto the other replicas, and, answering a short-read
// request with the rows it answered before, be asked again until the read
// timed out. So is one whose answer holds a cell or a complex deletion of
// a column the read did not select: the client would be handed it, and
// repair would write it on. And so is one whose row has a clustering key
// in a table without clustering columns (TableOptions.NoClusteringColumns):
// the read would take it for the partition's only row, and a page that
// returned one of two would end the partition.
var ErrOutsideQuery = errors.New("coordinator: replica answered a row, range tombstone or column outside the query")

// checkData rejects a data answer the read cannot use.
func checkData(cmd *replica.Command, p *replica.Partition, oneRow bool) error {
	if p.Key != cmd.Key {
		return fmt.Errorf("%w: asked for %q, got %q", ErrWrongKey, cmd.Key, p.Key)
	}
	if err := p.Validate(); err != nil {
		return err
	}
	return checkRows(cmd, p, oneRow)
}

// checkRows rejects a valid data answer with a row, a range tombstone or a
// column cmd does not select (its Columns sorted, as a read's are), or, if
// oneRow, a row with a clustering key.
func checkRows(cmd *replica.Command, p *replica.Partition, oneRow bool) error {
	// Rows are sorted, the empty clustering first: the last has one if any does.
	if n := len(p.Rows); oneRow && n > 0 && p.Rows[n-1].Clustering != "" {
		return fmt.Errorf("%w: row %q in a table without clustering columns", ErrOutsideQuery, p.Rows[n-1].Clustering)
	}
	if c, outside := cmd.Query.FirstRowOutside(p.Rows); outside {
		return fmt.Errorf("%w: row %q", ErrOutsideQuery, c)
	}
	if rt, outside := firstRangeOutside(cmd.Query.Slices, p.RangeTombstones); outside {
		return fmt.Errorf("%w: range tombstone %v", ErrOutsideQuery, rt)
	}
	if cmd.Columns == nil {
		return nil
	}
	if col, outside := firstColumnOutside(cmd.Columns, &p.Static); outside {
		return fmt.Errorf("%w: static column %q", ErrOutsideQuery, col)
	}
	for i := range p.Rows {
		if col, outside := firstColumnOutside(cmd.Columns, &p.Rows[i]); outside {
			return fmt.Errorf("%w: column %q of row %q", ErrOutsideQuery, col, p.Rows[i].Clustering)
		}
	}
	return nil
}

// firstColumnOutside returns the first column of r's cells and complex
// deletions, each sorted by column in a valid row, that columns (sorted)
// does not hold, and true. Both walks only move forward through columns,
// each step a binary search of what is left of them.
func firstColumnOutside(columns []string, r *replica.Row) (string, bool) {
	rest, last := columns, ""
	for i := range r.Cells {
		if col := r.Cells[i].Column; i == 0 || col != last { // a collection's cells share their column
			if rest = selected(rest, col); rest == nil {
				return col, true
			}
			last = col
		}
	}
	rest = columns
	for _, cd := range r.ComplexDeletions {
		if rest = selected(rest, cd.Column); rest == nil {
			return cd.Column, true
		}
	}
	return "", false
}

// selected returns columns from col on if they hold col, else nil.
func selected(columns []string, col string) []string {
	i, found := slices.BinarySearch(columns, col)
	if !found {
		return nil
	}
	return columns[i:]
}

// ownedColumns returns a sorted copy of columns: nil for nil (every
// column), empty for empty (none).
func ownedColumns(columns []string) []string {
	owned := slices.Clone(columns)
	slices.Sort(owned)
	return owned
}

// sortedColumns returns columns sorted: columns itself if they are, else a
// sorted copy. Sorted, every answer's
// columns are checked by binary search, and replicas need not sort them.
func sortedColumns(columns []string) []string {
	if slices.IsSorted(columns) {
		return columns
	}
	sorted := slices.Clone(columns)
	slices.Sort(sorted)
	return sorted
}

// firstRangeOutside returns the first of rts, ordered and not overlapping
// as in a valid partition, that slices (a valid Query's) do not hold
// whole, and true. A replica clips its range tombstones to the slices
// (Partition.Restrict), but one may run on over slices that touch, as a
// continuation's do where it splits one. It walks both lists once.
func firstRangeOutside(slices []replica.Slice, rts []replica.RangeTombstone) (replica.RangeTombstone, bool) {
	if slices == nil {
		return replica.RangeTombstone{}, false
	}
	i := 0
	for _, rt := range rts {
		for i < len(slices) && slices[i].End.Compare(rt.Start) <= 0 {
			i++ // that slice ends before rt starts, and before every rt after it
		}
		if i == len(slices) || slices[i].Start.Compare(rt.Start) > 0 {
			return rt, true
		}
		for ; slices[i].End.Compare(rt.End) < 0; i++ { // on over touching slices to rt's end
			if i+1 == len(slices) || slices[i].End.Compare(slices[i+1].Start) < 0 {
				return rt, true
			}
		}
	}
	return replica.RangeTombstone{}, false
}
