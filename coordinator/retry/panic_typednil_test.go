package retry_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A panic with a nil pointer of an error type (panic((*T)(nil))) must not
// hand errors.Is and errors.As that pointer, whose methods dereference nil:
// the panic errors unwrap to ErrTypedNil instead.
func TestPanicErrorsWithANilPointerUnwrapSafely(t *testing.T) {
	var rt *c.ReadFailureError // its Unwrap reads its receiver
	for _, err := range []error{&retry.AttemptPanicError{Value: rt}, &retry.PolicyPanicError{Value: rt}} {
		assert.NotPanics(t, func() { errors.Is(err, errors.ErrUnsupported) }, "%T", err)
		assert.ErrorIs(t, err, retry.ErrTypedNil, "%T", err)
		var target *c.ReadFailureError
		assert.False(t, errors.As(err, &target), "%T", err)
	}
}
