package ring

import (
	"fmt"
	"reflect"
)

// usable returns err, the error of the embedder's func what, or in place
// of an error that is or wraps a nil pointer of an error type (a nil *T
// returned as an error) an error that names the type: errors.Is and
// Error would call the pointer's methods, which dereference nil and crash.
func usable(err error, what string) error {
	if err == nil {
		return nil
	}
	if bad := nilLink(err); bad != nil {
		return fmt.Errorf("ring: %s returned an error that is or wraps a nil %T", what, bad)
	}
	return err
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
