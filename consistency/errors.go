package consistency

import (
	"fmt"
	"sort"
	"strings"
)

// UnavailableError reports that too few replicas were alive to attempt an
// operation at Level: Required were needed, Alive were known to be up. Nothing
// was sent. For EACH_QUORUM, Datacenter names the datacenter that fell short;
// for a DC-local level, the local datacenter whose replicas were counted
// (Cassandra's message does not name it there, but a misspelt local
// datacenter, which holds no replica, is then plain to see). Error names a
// non-empty Datacenter. It is not modified after it is returned, so it may be
// shared between goroutines.
type UnavailableError struct {
	Level      Level
	Required   int
	Alive      int
	Datacenter string
}

func (e *UnavailableError) Error() string {
	dc := ""
	if e.Datacenter != "" {
		dc = " in DC " + e.Datacenter
	}
	return fmt.Sprintf("Cannot achieve consistency level %s%s (%d required but only %d alive)",
		e.Level, dc, e.Required, e.Alive)
}

// ReadTimeoutError reports that a read did not hear from BlockFor replicas in
// time: Received answered, and DataPresent says whether the full data
// response was among them (if not, only digests arrived). It is not modified
// after it is returned, so it may be shared between goroutines.
type ReadTimeoutError struct {
	Level       Level
	BlockFor    int
	Received    int
	DataPresent bool
	// Cause is the context error that ended the wait, if any.
	Cause error
}

func (e *ReadTimeoutError) Error() string {
	data := "data not present"
	if e.DataPresent {
		data = "data present"
	}
	return fmt.Sprintf("Operation timed out - received only %d responses (%s, %d required, %s)",
		e.Received, e.Level, e.BlockFor, data)
}

// Unwrap returns the context error that ended the wait, so that
// errors.Is(err, context.DeadlineExceeded) holds.
func (e *ReadTimeoutError) Unwrap() error { return e.Cause }

// ReadFailureError reports that so many replicas failed that a read at Level
// could no longer hear from BlockFor of them. Reasons maps a failed replica's
// ID to its error. It is not modified after it is returned, so it may be
// shared between goroutines.
type ReadFailureError struct {
	Level       Level
	BlockFor    int
	Received    int
	Failures    int
	DataPresent bool
	Reasons     map[string]error
}

func (e *ReadFailureError) Error() string {
	return fmt.Sprintf("Operation failed - received %d responses and %d failures (%s, %d required)%s",
		e.Received, e.Failures, e.Level, e.BlockFor, reasonsText(e.Reasons))
}

// Unwrap returns the replicas' errors, ordered by replica ID, so that
// errors.Is and errors.As see what made the replicas fail.
func (e *ReadFailureError) Unwrap() []error { return reasonsList(e.Reasons) }

// WriteTimeoutError reports that a write of WriteType was not acknowledged by
// BlockFor replicas in time; Received acknowledged it. It is not modified
// after it is returned, so it may be shared between goroutines.
type WriteTimeoutError struct {
	Level     Level
	WriteType WriteType
	BlockFor  int
	Received  int
	// Cause is the context error that ended the wait, if any.
	Cause error
}

func (e *WriteTimeoutError) Error() string {
	return fmt.Sprintf("Operation timed out - received only %d responses (%s write at %s, %d required)",
		e.Received, e.WriteType, e.Level, e.BlockFor)
}

// Unwrap returns the context error that ended the wait, so that
// errors.Is(err, context.DeadlineExceeded) holds, as for ReadTimeoutError.
func (e *WriteTimeoutError) Unwrap() error { return e.Cause }

// WriteFailureError reports that so many replicas failed a write of WriteType
// that BlockFor acknowledgements could no longer arrive. It is not modified
// after it is returned, so it may be shared between goroutines.
type WriteFailureError struct {
	Level     Level
	WriteType WriteType
	BlockFor  int
	Received  int
	Failures  int
	Reasons   map[string]error
}

// Unwrap returns the replicas' errors, ordered by replica ID.
func (e *WriteFailureError) Unwrap() []error { return reasonsList(e.Reasons) }

func (e *WriteFailureError) Error() string {
	return fmt.Sprintf("Operation failed - received %d responses and %d failures (%s write at %s, %d required)%s",
		e.Received, e.Failures, e.WriteType, e.Level, e.BlockFor, reasonsText(e.Reasons))
}

// reasonsText renders failure reasons sorted by replica ID, so that messages
// are stable.
func reasonsText(reasons map[string]error) string {
	if len(reasons) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(": ")
	for i, id := range sortedIDs(reasons) {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %v", id, reasons[id])
	}
	return b.String()
}

func reasonsList(reasons map[string]error) []error {
	errs := make([]error, 0, len(reasons))
	for _, id := range sortedIDs(reasons) {
		errs = append(errs, reasons[id])
	}
	return errs
}

func sortedIDs(reasons map[string]error) []string {
	ids := make([]string, 0, len(reasons))
	for id := range reasons {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
