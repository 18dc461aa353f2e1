package coordinator

import (
	"fmt"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/typednil"
)

// usable returns err, the error of the embedder's code who (a replica, id,
// or the Locator), or in its place an error that says what is wrong with
// it when no one could inspect it: one that is or wraps a nil pointer of
// an error type (a nil *T returned as an error) gets an error wrapping
// retry.ErrTypedNil that names the type, and one whose own methods panic
// (typednil.Panics) an error that wraps nothing. errors.Is and errors.As,
// on a worker's goroutine or the caller's, would call those methods and
// crash. Like the retry executor, it takes such an error for the failure
// it is.
func usable(err error, who, id string) error {
	if err == nil {
		return nil
	}
	if id != "" {
		who += " " + id
	}
	if bad := typednil.Find(err); bad != nil {
		if bad == err {
			return fmt.Errorf("coordinator: %s returned a nil %T as its error: %w", who, bad, retry.ErrTypedNil)
		}
		return fmt.Errorf("coordinator: %s returned an error wrapping a nil %T: %w", who, bad, retry.ErrTypedNil)
	}
	if v := typednil.Panics(err); v != nil {
		return fmt.Errorf("coordinator: %s returned a %T whose methods panic: %v", who, err, v)
	}
	return err
}
