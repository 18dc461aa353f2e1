// Package typednil finds nil pointers returned as errors: a nil *T in an
// error interface is not a nil error, and errors.Is, errors.As and Error
// call its methods, which dereference nil and crash. Code that calls an
// embedder's functions checks their errors with it before using them, and
// configurations check the implementations they are given with Holds.
// Panics finds the other errors no one can inspect: those whose own
// methods panic.
package typednil

import (
	"errors"
	"fmt"
	"reflect"
)

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
// method of a nil pointer; an Unwrap that panics, or a tree of more than
// maxTree errors, ends the search with nil (Panics tells of both).
func Find(err error) (bad error) {
	defer func() {
		if recover() != nil {
			bad = nil
		}
	}()
	n := 0
	return find(err, &n)
}

// maxTree bounds the errors Find and Panics look at on one tree: an error
// that wraps itself makes an endless one, on which errors.Is never returns
// or overflows the stack, a crash no recover catches.
const maxTree = 1 << 10

func find(err error, n *int) error {
	if *n++; err == nil || *n > maxTree {
		return nil
	}
	if v := reflect.ValueOf(err); v.Kind() == reflect.Pointer && v.IsNil() {
		return err
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return find(u.Unwrap(), n)
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			if bad := find(inner, n); bad != nil {
				return bad
			}
		}
	}
	return nil
}

// treeTooLarge counts the errors on err's tree into n, stopping past
// maxTree, and reports whether it did stop.
func treeTooLarge(err error, n *int) bool {
	count(err, n)
	return *n > maxTree
}

func count(err error, n *int) {
	if err == nil || *n > maxTree {
		return
	}
	*n++
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		count(u.Unwrap(), n)
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			count(inner, n)
		}
	}
}

// Panics calls what inspecting err calls, its Error and the Unwrap, Is
// and As methods on its tree (as errors.Is and errors.As do, for targets
// nothing matches), and returns what one of them panicked with, or nil:
// an error whose Is reads a field it never set, say. Call it on errors
// Find finds no nil pointer in; a nil err has none to call.
func Panics(err error) (v any) {
	if err == nil {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			v = p
		}
	}()
	if n := 0; treeTooLarge(err, &n) {
		return fmt.Sprintf("a tree of more than %d errors (does it wrap itself?)", maxTree)
	}
	_ = err.Error()
	_ = errors.Is(err, errUnmatched)
	var target *unmatched
	_ = errors.As(err, &target)
	return nil
}

// errUnmatched and unmatched are what no error is: errors.Is and
// errors.As look for them over the whole tree.
var errUnmatched = errors.New("typednil: unmatched")

type unmatched struct{}

func (*unmatched) Error() string { return "typednil: unmatched" }
