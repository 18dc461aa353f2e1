package consistency_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
)

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&c.UnavailableError{Level: c.Quorum, Required: 2, Alive: 1},
			"Cannot achieve consistency level QUORUM (2 required but only 1 alive)"},
		{&c.UnavailableError{Level: c.EachQuorum, Required: 2, Alive: 0, Datacenter: "dc2"},
			"Cannot achieve consistency level EACH_QUORUM in DC dc2 (2 required but only 0 alive)"},
		{&c.ReadTimeoutError{Level: c.Quorum, BlockFor: 2, Received: 1, DataPresent: false},
			"Operation timed out - received only 1 responses (QUORUM, 2 required, data not present)"},
		{&c.ReadFailureError{Level: c.All, BlockFor: 3, Received: 1, Failures: 2,
			Reasons: map[string]error{"b": errors.New("disk"), "a": errors.New("panic")}},
			"Operation failed - received 1 responses and 2 failures (ALL, 3 required): a: panic; b: disk"},
		{&c.WriteTimeoutError{Level: c.One, WriteType: c.WriteBatchLog, BlockFor: 1, Received: 0},
			"Operation timed out - received only 0 responses (BATCH_LOG write at ONE, 1 required)"},
		{&c.WriteFailureError{Level: c.Two, WriteType: c.WriteCounter, BlockFor: 2, Received: 1, Failures: 1},
			"Operation failed - received 1 responses and 1 failures (COUNTER write at TWO, 2 required)"},
		// Every number differs from the others, so that two swapped fields
		// show (WriteFailureException: "received %d responses and %d
		// failures").
		{&c.UnavailableError{Level: c.All, Required: 5, Alive: 2},
			"Cannot achieve consistency level ALL (5 required but only 2 alive)"},
		{&c.ReadTimeoutError{Level: c.All, BlockFor: 5, Received: 2, DataPresent: true},
			"Operation timed out - received only 2 responses (ALL, 5 required, data present)"},
		{&c.ReadFailureError{Level: c.All, BlockFor: 5, Received: 2, Failures: 3},
			"Operation failed - received 2 responses and 3 failures (ALL, 5 required)"},
		{&c.WriteTimeoutError{Level: c.All, WriteType: c.WriteCAS, BlockFor: 5, Received: 2},
			"Operation timed out - received only 2 responses (CAS write at ALL, 5 required)"},
		{&c.WriteFailureError{Level: c.All, WriteType: c.WriteCAS, BlockFor: 5, Received: 2, Failures: 3},
			"Operation failed - received 2 responses and 3 failures (CAS write at ALL, 5 required)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.err.Error())
	}
}

func TestErrorsAreMatchedWithAs(t *testing.T) {
	var wrapped error = fmt.Errorf("read users: %w", &c.ReadTimeoutError{Level: c.One, BlockFor: 1, Cause: context.DeadlineExceeded})
	var rt *c.ReadTimeoutError
	assert.True(t, errors.As(wrapped, &rt))
	assert.Equal(t, 1, rt.BlockFor)
	assert.ErrorIs(t, wrapped, context.DeadlineExceeded)

	wrapped = fmt.Errorf("write users: %w", &c.WriteTimeoutError{Level: c.One, BlockFor: 1, Cause: context.DeadlineExceeded})
	assert.ErrorIs(t, wrapped, context.DeadlineExceeded, "as a read timeout's")
}

func TestWriteTypeNamesRoundTrip(t *testing.T) {
	want := []string{"SIMPLE", "BATCH", "UNLOGGED_BATCH", "COUNTER", "BATCH_LOG", "CAS", "VIEW", "CDC"}
	for i, name := range want {
		w := c.WriteType(i)
		assert.Equal(t, name, w.String())
		back, err := c.ParseWriteType(name)
		assert.NoError(t, err)
		assert.Equal(t, w, back)
	}
	w, err := c.ParseWriteType("unlogged_batch")
	assert.NoError(t, err)
	assert.Equal(t, c.WriteUnloggedBatch, w)
	_, err = c.ParseWriteType("LOGGED")
	assert.ErrorIs(t, err, c.ErrUnknownWriteType)
	assert.Contains(t, err.Error(), `"LOGGED"`)
	assert.Equal(t, "WriteType(9)", c.WriteType(9).String())
}

// A failure's reasons are visible to errors.Is and errors.As.
func TestFailureErrorsUnwrapTheirReasons(t *testing.T) {
	cause := errors.New("disk full")
	for _, err := range []error{
		&c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Failures: 1, Reasons: map[string]error{"n2": cause}},
		&c.WriteFailureError{Level: c.Quorum, BlockFor: 2, Failures: 1, Reasons: map[string]error{"n2": cause}},
	} {
		assert.ErrorIs(t, err, cause)
	}
}
