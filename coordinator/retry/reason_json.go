package retry

import (
	"context"
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
)

// reasons are the errors a Reason may be that JSON reads back as
// themselves, so that errors.Is matches a logged Reason as the original
// and AttemptRecord.String leaves out ErrRethrown as it did.
var reasons = []error{
	ErrRethrown, ErrNotIdempotent, ErrPlanExhausted, ErrTooManyRetries, ErrBudgetExhausted,
	ErrBackoffPastDeadline, ErrInvalidVerdict, context.Canceled, context.DeadlineExceeded,
}

// readReason sets *dst from the JSON errtext.Of wrote, as errtext.Read
// does, but the text of one of reasons reads back as that error.
func readReason(dst *error, raw json.RawMessage, field string) error {
	if err := errtext.Read(dst, raw, field); err != nil || *dst == nil {
		return err
	}
	for _, r := range reasons {
		if (*dst).Error() == r.Error() {
			*dst = r
			break
		}
	}
	return nil
}
