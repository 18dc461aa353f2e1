package ring

import (
	"fmt"

	"github.com/readpath/readpath/internal/typednil"
)

// usable returns err, the error of the embedder's func what, or in place
// of an error that is or wraps a nil pointer of an error type (a nil *T
// returned as an error) an error that names the type: errors.Is and
// Error would call the pointer's methods, which dereference nil and crash.
func usable(err error, what string) error {
	if err == nil {
		return nil
	}
	if bad := typednil.Find(err); bad != nil {
		return fmt.Errorf("ring: %s returned an error that is or wraps a nil %T", what, bad)
	}
	return err
}
