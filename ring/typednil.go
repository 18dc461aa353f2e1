package ring

import (
	"fmt"

	"github.com/readpath/readpath/internal/typednil"
)

// usable returns err, the error of the embedder's func what, or in place
// of an error that is or wraps a nil pointer of an error type (a nil *T
// returned as an error) an error that names the type, and of one whose
// own methods panic (typednil.Panics) an error that says so: errors.Is and
// Error would call those methods and crash.
func usable(err error, what string) error {
	if err == nil {
		return nil
	}
	if bad := typednil.Find(err); bad != nil {
		return fmt.Errorf("ring: %s returned an error that is or wraps a nil %T", what, bad)
	}
	if v := typednil.Panics(err); v != nil {
		return fmt.Errorf("ring: %s returned a %T whose methods panic: %v", what, err, v)
	}
	return err
}
