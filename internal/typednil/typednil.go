// Package typednil finds nil pointers returned as errors: a nil *T in an
// error interface is not a nil error, and errors.Is, errors.As and Error
// call its methods, which dereference nil and crash. Code that calls an
// embedder's functions checks their errors with it before using them, and
// configurations check the implementations they are given with Holds.
package typednil

import "reflect"

// Holds reports whether v, an interface value that is not nil, holds a nil
// pointer or func: a Locator or Policy that compares unequal to nil but
// whose first call would crash. A nil map or slice is not held against an
// implementation: reading one is legal, and may mean "none" to it.
func Holds(v any) bool {
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func:
		return rv.IsNil()
	}
	return false
}

// Find returns the first nil pointer on err's tree (err itself, or one it
// wraps through Unwrap() error or Unwrap() []error), or nil. It calls no
// method of a nil pointer.
func Find(err error) error {
	if err == nil {
		return nil
	}
	if v := reflect.ValueOf(err); v.Kind() == reflect.Pointer && v.IsNil() {
		return err
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return Find(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			if bad := Find(inner); bad != nil {
				return bad
			}
		}
	}
	return nil
}
