package retry

import (
	"fmt"
	"runtime/debug"
)

// PolicyPanicError is the Reason of a statement whose policy panicked. The
// executor recovers the panic and fails the statement at once, in
// speculative execution too, as the Java driver fails the request
// (IllegalStateException) rather than crash the caller. It is not modified
// once returned: safe for concurrent reads.
type PolicyPanicError struct {
	Value any    // what the policy panicked with
	Stack []byte // the stack of the goroutine that panicked, at the panic
}

func (e *PolicyPanicError) Error() string {
	return fmt.Sprintf("retry: the retry policy panicked: %v", e.Value)
}

// Unwrap returns Value if it is an error, such as a runtime.Error, or an
// error wrapping ErrTypedNil if Value is or wraps a nil pointer of an
// error type; nil for a value that is no error.
func (e *PolicyPanicError) Unwrap() error { return asError(e.Value) }

// AttemptPanicError is what Execute panics with, on the goroutine that
// called it, when an attempt that ran on a goroutine of its own (every
// attempt of a statement that speculates) panicked. Re-raising the value
// alone would lose where the attempt panicked, so it carries the stack of
// the attempt's goroutine, which Error prints. It is not modified once
// raised: safe for concurrent reads.
type AttemptPanicError struct {
	Value any    // what the attempt panicked with
	Stack []byte // the attempt's goroutine stack, at the panic
}

func (e *AttemptPanicError) Error() string {
	return fmt.Sprintf("retry: attempt panicked: %v\n\nattempt goroutine stack:\n%s", e.Value, e.Stack)
}

// Unwrap returns Value if it is an error, such as a runtime.Error, or an
// error wrapping ErrTypedNil if Value is or wraps a nil pointer of an
// error type; nil for a value that is no error.
func (e *AttemptPanicError) Unwrap() error { return asError(e.Value) }

// asError returns v as an error errors.Is and errors.As can walk: a nil
// pointer there (panic((*T)(nil))) would have its methods called on nil.
func asError(v any) error {
	err, _ := v.(error)
	return usable(err)
}

// recoverPolicy turns a panic of the policy, if any, into *perr. Deferred,
// it runs on the panicking goroutine, whose stack debug.Stack then holds.
func recoverPolicy(perr *error) {
	if p := recover(); p != nil {
		*perr = &PolicyPanicError{Value: p, Stack: debug.Stack()}
	}
}
