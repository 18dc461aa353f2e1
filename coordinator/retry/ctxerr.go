package retry

import (
	"context"
	"fmt"

	"github.com/readpath/readpath/internal/typednil"
)

// ended is ctx's error, wrapping as well the cause its canceller gave
// (context.WithCancelCause, WithDeadlineCause), so that errors.Is on a
// statement the caller ended finds both. A cause that is or wraps a nil
// pointer is left out, as errors.Is would call its methods on nil.
func ended(ctx context.Context) error {
	err := ctx.Err()
	cause := context.Cause(ctx)
	if err == nil || cause == nil || cause == err || typednil.Find(cause) != nil {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}
