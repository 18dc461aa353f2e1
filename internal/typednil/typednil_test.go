package typednil_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/readpath/readpath/internal/typednil"
)

type ptrErr struct{ inner error }

func (e *ptrErr) Error() string { return "ptr: " + e.inner.Error() }
func (e *ptrErr) Unwrap() error { return e.inner }

func TestFindsANilPointerAnywhereOnTheTree(t *testing.T) {
	var bad *ptrErr
	for name, tc := range map[string]struct {
		err  error
		want bool
	}{
		"nil":              {nil, false},
		"plain":            {errors.New("x"), false},
		"a nil pointer":    {bad, true},
		"wrapped":          {fmt.Errorf("a: %w", bad), true},
		"joined":           {errors.Join(errors.New("x"), fmt.Errorf("b: %w", bad)), true},
		"a good pointer":   {&ptrErr{errors.New("x")}, false},
		"wrapping nothing": {fmt.Errorf("no wrap"), false},
	} {
		got := typednil.Find(tc.err)
		if (got != nil) != tc.want {
			t.Errorf("%s: Find = %v, want a nil pointer: %v", name, got, tc.want)
		}
		if got != nil && got != error(bad) {
			t.Errorf("%s: Find returned %#v, not the nil pointer", name, got)
		}
	}
}

type nilMethods struct{}

func (*nilMethods) Locate() {}

func TestHoldsTellsANilInsideAnInterface(t *testing.T) {
	var p *nilMethods
	var f func()
	var m map[string]int
	var c chan int
	var s []int
	for name, tc := range map[string]struct {
		v    any
		want bool
	}{
		"nil interface":   {nil, false},
		"nil pointer":     {p, true},
		"nil func":        {f, true},
		"nil map":         {m, false}, // legal to read: an implementation may mean "none"
		"nil channel":     {c, false},
		"nil slice":       {s, false},
		"a pointer":       {&nilMethods{}, false},
		"a func":          {func() {}, false},
		"a value":         {nilMethods{}, false},
		"a number":        {0, false},
		"an empty struct": {struct{}{}, false},
		// Held in the interface's word itself, which is nil: not a nil
		// pointer, whose methods would crash, but a value.
		"a struct of a nil pointer":   {struct{ p *nilMethods }{}, false},
		"an array of one nil pointer": {[1]*nilMethods{}, false},
	} {
		if got := typednil.Holds(tc.v); got != tc.want {
			t.Errorf("%s: Holds = %v, want %v", name, got, tc.want)
		}
	}
}

// isPanics is an error whose Is reads a field it never set.
type isPanics struct{ code *int }

func (isPanics) Error() string          { return "code error" }
func (e isPanics) Is(target error) bool { return *e.code == 0 }

// unwrapPanics is an error whose Unwrap reads a field it never set.
type unwrapPanics struct{ inner *error }

func (unwrapPanics) Error() string   { return "wrapper" }
func (e unwrapPanics) Unwrap() error { return *e.inner }

func TestPanicsTellsAnErrorWhoseMethodsPanic(t *testing.T) {
	for name, tc := range map[string]struct {
		err    error
		panics bool
	}{
		"nil":                {nil, false},
		"plain":              {errors.New("x"), false},
		"wrapped":            {fmt.Errorf("a: %w", errors.New("x")), false},
		"Is panics":          {isPanics{}, true},
		"a wrapped Is":       {fmt.Errorf("a: %w", isPanics{}), true},
		"joined":             {errors.Join(errors.New("x"), isPanics{}), true},
		"Unwrap panics":      {unwrapPanics{}, true},
		"a good Is and code": {isPanics{code: new(int)}, false},
	} {
		if got := typednil.Panics(tc.err); (got != nil) != tc.panics {
			t.Errorf("%s: Panics = %v, want a panic: %v", name, got, tc.panics)
		}
	}
	if bad := typednil.Find(unwrapPanics{}); bad != nil {
		t.Errorf("Find through an Unwrap that panics = %v, want nil", bad)
	}
}

// loops is an error whose Unwrap returns itself; joinsItself one whose
// Unwrap lists itself: endless trees, on which errors.Is never returns or
// overflows the stack.
type loops struct{}

func (loops) Error() string   { return "loops" }
func (e loops) Unwrap() error { return e }

type joinsItself struct{}

func (joinsItself) Error() string     { return "joins itself" }
func (e joinsItself) Unwrap() []error { return []error{errors.New("x"), e} }

func TestAnErrorThatWrapsItselfIsToldNotWalked(t *testing.T) {
	for _, err := range []error{loops{}, joinsItself{}, fmt.Errorf("a: %w", loops{})} {
		if bad := typednil.Find(err); bad != nil {
			t.Errorf("Find(%v) = %v, want nil", err, bad)
		}
		if v := typednil.Panics(err); v == nil {
			t.Errorf("Panics(%v) = nil, want it told", err)
		}
	}
}
