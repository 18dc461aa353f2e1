package coordinator

import (
	"fmt"
	"reflect"

	"github.com/readpath/readpath/coordinator/retry"
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
	bad := nilLink(err)
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

// nilLink returns the first nil pointer on err's tree, or nil, calling no
// method of one.
func nilLink(err error) error {
	if v := reflect.ValueOf(err); v.Kind() == reflect.Pointer && v.IsNil() {
		return err
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return nilLink(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			if bad := nilLink(inner); bad != nil {
				return bad
			}
		}
	}
	return nil
}
