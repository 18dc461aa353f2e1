// Package ctxcause turns the end of a context into the error a caller can
// act on: the context's own error, wrapping as well the cause its canceller
// gave.
package ctxcause

import (
	"context"
	"fmt"

	"github.com/readpath/readpath/internal/typednil"
)

// Err is ctx.Err(), wrapping as well the cause its canceller gave
// (context.WithCancelCause, WithDeadlineCause, WithTimeoutCause), so that
// errors.Is finds both: a caller tells its reasons apart by the cause. A
// cause that is or wraps a nil pointer is left out, as errors.Is would call
// its methods on nil. It looks for a cause only once ctx has ended.
func Err(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	cause := context.Cause(ctx)
	if cause == nil || cause == err || typednil.Find(cause) != nil {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}
