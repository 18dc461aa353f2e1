package replica

import (
	"errors"
	"fmt"
	"slices"
)

// ErrInvalidQuery is matched by every *QueryError.
var ErrInvalidQuery = errors.New("replica: invalid query")

// QueryError says why a Query is invalid. It is not modified after it is
// returned, so it may be shared between goroutines.
type QueryError struct {
	// Slice is the index of the slice at fault, or -1.
	Slice  int
	Reason string
}

func (e *QueryError) Error() string {
	if e.Slice < 0 {
		return ErrInvalidQuery.Error() + ": " + e.Reason
	}
	return fmt.Sprintf("%s: slice %d: %s", ErrInvalidQuery.Error(), e.Slice, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidQuery) hold.
func (e *QueryError) Is(target error) bool { return target == ErrInvalidQuery }

// Validate returns a *QueryError if q cannot be answered: a negative limit,
// or a slice that does not start with a start bound or end with an end
// bound, has an open bound with a clustering key, holds no clustering key,
// or starts before the previous one ends.
func (q Query) Validate() error {
	if q.Limit < 0 {
		return &QueryError{Slice: -1, Reason: fmt.Sprintf("negative limit %d", q.Limit)}
	}
	for i := range q.Slices {
		reason := sliceProblem(q.Slices[i])
		if reason == "" && i > 0 && q.Slices[i].Start.Compare(q.Slices[i-1].End) < 0 {
			reason = "slices out of order or overlapping (NormalizeSlices joins them)"
		}
		if reason != "" {
			return &QueryError{Slice: i, Reason: reason}
		}
	}
	return nil
}

func sliceProblem(s Slice) string {
	if reason := boundsProblem(s); reason != "" {
		return reason
	}
	if s.isEmpty() {
		return fmt.Sprintf("%v selects no clustering key", s)
	}
	return ""
}

// boundsProblem says what is wrong with s's bounds themselves.
func boundsProblem(s Slice) string {
	switch {
	case !s.Start.IsStart():
		return fmt.Sprintf("starting with %v, not a start bound", s.Start)
	case !s.End.IsEnd():
		return fmt.Sprintf("ending with %v, not an end bound", s.End)
	case (s.Start.Kind == BoundBottom && s.Start.Clustering != "") || (s.End.Kind == BoundTop && s.End.Clustering != ""):
		return "open bound with a clustering key"
	}
	return ""
}

// NormalizeSlices returns the slices that select what those of in together
// select, in the form a Query needs: ordered by start, the empty ones
// dropped, and those that overlap or touch joined, as Cassandra's
// Slices.Builder does. The result is never nil (an empty result selects no
// row, so nil, which as Query.Slices reads every row, becomes a list that
// reads none: keep a nil list as it is) and shares no memory with in. A
// slice with a bound of the wrong kind or an open bound with a clustering
// key is a *QueryError naming it.
func NormalizeSlices(in []Slice) ([]Slice, error) {
	out := make([]Slice, 0, len(in))
	for i, s := range in {
		if reason := boundsProblem(s); reason != "" {
			return nil, &QueryError{Slice: i, Reason: reason}
		}
		if !s.isEmpty() {
			out = append(out, s)
		}
	}
	sortByStart(out)
	joined := out[:0]
	for _, s := range out {
		if n := len(joined); n > 0 && s.Start.Compare(joined[n-1].End) <= 0 {
			if s.End.Compare(joined[n-1].End) > 0 {
				joined[n-1].End = s.End
			}
			continue
		}
		joined = append(joined, s)
	}
	return joined, nil
}

func sortByStart(s []Slice) {
	slices.SortStableFunc(s, func(a, b Slice) int { return a.Start.Compare(b.Start) })
}
