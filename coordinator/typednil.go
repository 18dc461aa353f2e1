package coordinator

import (
	"fmt"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/typednil"
)

// usable returns err, the error of the embedder's code who (a replica, id,
// or the Locator), or in place of an error that is or wraps a nil pointer
// of an error type (a nil *T returned as an error) an error wrapping
// retry.ErrTypedNil that names the type: errors.Is and errors.As, on a
// worker's goroutine or the caller's, would call the pointer's Unwrap or
// Is, which dereference nil and crash. Like the retry executor, it takes
// it for the failure it is.
func usable(err error, who, id string) error {
	if err == nil {
		return nil
	}
	bad := typednil.Find(err)
	if bad == nil {
		return err
	}
	if id != "" {
		who += " " + id
	}
	if bad == err {
		return fmt.Errorf("coordinator: %s returned a nil %T as its error: %w", who, bad, retry.ErrTypedNil)
	}
	return fmt.Errorf("coordinator: %s returned an error wrapping a nil %T: %w", who, bad, retry.ErrTypedNil)
}
