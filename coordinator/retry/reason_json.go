package retry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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
// does, but the text of one of reasons reads back as that error, and a
// context's error with its cause ("context canceled: shutting down", as
// the executor gives a context cancelled with a cause) as one wrapping
// that error and an error of the cause's text.
func readReason(dst *error, raw json.RawMessage, field string) error {
	if err := errtext.Read(dst, raw, field); err != nil || *dst == nil {
		return err
	}
	text := (*dst).Error()
	for _, r := range reasons {
		if text == r.Error() {
			*dst = r
			break
		}
		if cause, ok := strings.CutPrefix(text, r.Error()+": "); ok && isContextErr(r) {
			*dst = fmt.Errorf("%w: %w", r, errors.New(cause))
			break
		}
	}
	return nil
}

func isContextErr(err error) bool { return err == context.Canceled || err == context.DeadlineExceeded }
