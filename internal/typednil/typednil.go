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
	"unsafe"
)

// Holds reports whether v, an interface value that is not nil, holds a nil
// pointer or func: a Locator or Policy that compares unequal to nil but
// whose first call would crash. A nil map or slice is not held against an
// implementation: reading one is legal, and may mean "none" to it.
func Holds(v any) bool {
	// An interface's second word is a pointer-shaped value itself, or
	// points to a copy of the value: only a nil word can be a nil pointer
	// or func. Every read checks each replica the Locator gives it, and
	// answering those from the word alone took 2 % off a QUORUM read.
	if (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] != nil {
		return false
	}
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
	walk(err, func(e error) bool {
		if v := reflect.ValueOf(e); v.Kind() == reflect.Pointer && v.IsNil() {
			bad = e
		}
		return bad == nil
	})
	return bad
}

// maxTree bounds the errors Find and Panics look at on one tree: an error
// that wraps itself makes an endless one, on which errors.Is never returns
// or overflows the stack, a crash no recover catches.
const maxTree = 1 << 10

// walk calls visit on err and each error it wraps, depth first, until
// visit returns false or maxTree errors were visited, and reports whether
// it stopped at maxTree. It calls no method of a nil pointer: visit sees
// it, and walk does not look into it.
func walk(err error, visit func(error) bool) (tooLarge bool) {
	n := 0
	var step func(error) bool
	step = func(e error) bool {
		if e == nil {
			return true
		}
		if n++; n > maxTree {
			tooLarge = true
			return false
		}
		if !visit(e) {
			return false
		}
		if v := reflect.ValueOf(e); v.Kind() == reflect.Pointer && v.IsNil() {
			return true
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			return step(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				if !step(inner) {
					return false
				}
			}
		}
		return true
	}
	step(err)
	return tooLarge
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
	if walk(err, func(error) bool { return true }) {
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
