package consistency_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
)

// LOCAL_QUORUM / LOCAL_SERIAL over small local factors: localQuorumFor is
// rf/2+1, so RF 1 needs 1, RF 2 needs 2, RF 0 (or a DC the replication
// does not name) needs 1.
func TestLocalQuorumSmallLocalFactors(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 1, "dc2": 2, "dc3": 0, "dc4": 5})
	want := map[string]int{"dc1": 1, "dc2": 2, "dc3": 1, "dc4": 3, "nowhere": 1}
	for dc, n := range want {
		assert.Equal(t, n, c.LocalQuorum.BlockFor(r, dc), dc)
		assert.Equal(t, n, c.LocalSerial.BlockFor(r, dc), dc)
		assert.Equal(t, 1, c.LocalOne.BlockFor(r, dc), dc)
	}
	assert.Equal(t, 5, c.Quorum.BlockFor(r, "dc1"), "8/2+1")
	assert.Equal(t, 1+2+3, c.EachQuorum.BlockFor(r, "dc1"), "dc3's RF 0 is left out")
	assert.Equal(t, map[string]int{"dc1": 1, "dc2": 2, "dc4": 3}, c.EachQuorumFor(r))
	assert.Equal(t, 8, c.All.BlockFor(r, "dc3"))
}

func TestAssureSufficientLiveEdges(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 2, "dc2": 1, "dc3": 0})
	tests := []struct {
		level c.Level
		local string
		live  map[string]int
		want  *c.UnavailableError // nil: sufficient
	}{
		// LOCAL_QUORUM over a local RF 2 needs both.
		{c.LocalQuorum, "dc1", map[string]int{"dc1": 1, "dc2": 1}, &c.UnavailableError{Level: c.LocalQuorum, Required: 2, Alive: 1, Datacenter: "dc1"}},
		{c.LocalQuorum, "dc1", map[string]int{"dc1": 2}, nil},
		// Local RF 1.
		{c.LocalQuorum, "dc2", map[string]int{"dc1": 2}, &c.UnavailableError{Level: c.LocalQuorum, Required: 1, Alive: 0, Datacenter: "dc2"}},
		{c.LocalQuorum, "dc2", map[string]int{"dc2": 1}, nil},
		// Local RF 0: one required, none can be alive.
		{c.LocalQuorum, "dc3", map[string]int{"dc1": 2, "dc2": 1}, &c.UnavailableError{Level: c.LocalQuorum, Required: 1, Alive: 0, Datacenter: "dc3"}},
		{c.LocalOne, "dc3", map[string]int{"dc1": 2, "dc2": 1}, &c.UnavailableError{Level: c.LocalOne, Required: 1, Alive: 0, Datacenter: "dc3"}},
		{c.LocalSerial, "dc3", map[string]int{"dc1": 2, "dc2": 1}, &c.UnavailableError{Level: c.LocalSerial, Required: 1, Alive: 0, Datacenter: "dc3"}},
		// EACH_QUORUM with a whole DC down names it with its own quorum.
		{c.EachQuorum, "dc1", map[string]int{"dc1": 2}, &c.UnavailableError{Level: c.EachQuorum, Required: 1, Alive: 0, Datacenter: "dc2"}},
		{c.EachQuorum, "dc1", map[string]int{"dc2": 1}, &c.UnavailableError{Level: c.EachQuorum, Required: 2, Alive: 0, Datacenter: "dc1"}},
		{c.EachQuorum, "dc3", map[string]int{"dc1": 2, "dc2": 1}, nil},
		// Fixed counts above the replication factor.
		{c.Three, "dc1", map[string]int{"dc1": 2}, &c.UnavailableError{Level: c.Three, Required: 3, Alive: 2}},
		{c.Three, "dc1", map[string]int{"dc1": 2, "dc2": 1}, nil},
		{c.All, "dc3", map[string]int{"dc1": 2}, &c.UnavailableError{Level: c.All, Required: 3, Alive: 2}},
		{c.Quorum, "dc3", map[string]int{"dc1": 1}, &c.UnavailableError{Level: c.Quorum, Required: 2, Alive: 1}},
		{c.Serial, "dc3", map[string]int{"dc2": 1, "dc1": 1}, nil},
	}
	for _, tt := range tests {
		err := c.AssureSufficientLive(tt.level, r, tt.local, tt.live)
		if tt.want == nil {
			assert.NoError(t, err, "%v from %s with %v", tt.level, tt.local, tt.live)
			continue
		}
		var u *c.UnavailableError
		require.ErrorAs(t, err, &u, "%v from %s with %v", tt.level, tt.local, tt.live)
		assert.Equal(t, *tt.want, *u, "%v from %s with %v", tt.level, tt.local, tt.live)
	}
}

// Simple replication: EACH_QUORUM is QUORUM over the total, names no DC.
func TestEachQuorumUnderSimple(t *testing.T) {
	r := c.Simple(5)
	assert.Equal(t, 3, c.EachQuorum.BlockFor(r, "dc1"))
	err := c.AssureSufficientLive(c.EachQuorum, r, "dc1", map[string]int{"dc1": 1, "dc2": 1})
	var u *c.UnavailableError
	require.ErrorAs(t, err, &u)
	assert.Equal(t, c.UnavailableError{Level: c.EachQuorum, Required: 3, Alive: 2}, *u)
}

// errors.Is / errors.As over every typed error, wrapped, with nil and
// odd fields: none panics, each finds what it wraps and nothing else.
func TestTypedErrorsIsAs(t *testing.T) {
	disk := errors.New("disk")
	var errs = []error{
		&c.UnavailableError{Level: c.Quorum, Required: 2, Alive: 1},
		&c.ReadTimeoutError{Level: c.Quorum, BlockFor: 2, Received: 1},
		&c.ReadTimeoutError{Level: c.Quorum, BlockFor: 2, Received: 2, Cause: context.DeadlineExceeded},
		&c.ReadFailureError{Level: c.All, BlockFor: 3, Failures: 1},
		&c.ReadFailureError{Level: c.All, BlockFor: 3, Failures: 2, Reasons: map[string]error{"a": nil, "b": disk}},
		&c.WriteTimeoutError{Level: c.One, BlockFor: 1},
		&c.WriteFailureError{Level: c.One, BlockFor: 1, Failures: 1, Reasons: map[string]error{"a": nil}},
	}
	for _, e := range errs {
		wrapped := fmt.Errorf("op: %w", e)
		assert.NotPanics(t, func() {
			errors.Is(wrapped, io.EOF)
			var u *c.UnavailableError
			errors.As(wrapped, &u)
			var rt *c.ReadTimeoutError
			errors.As(wrapped, &rt)
			var rf *c.ReadFailureError
			errors.As(wrapped, &rf)
			_ = wrapped.Error()
		}, "%#v", e)
		assert.False(t, errors.Is(wrapped, context.Canceled), "%#v", e)
		assert.False(t, errors.Is(wrapped, io.EOF), "%#v", e)
	}
	var rt *c.ReadTimeoutError
	require.ErrorAs(t, fmt.Errorf("x: %w", errs[2]), &rt)
	assert.Equal(t, 2, rt.Received)
	assert.ErrorIs(t, errs[2], context.DeadlineExceeded)
	assert.NotErrorIs(t, errs[1], context.DeadlineExceeded, "no cause, no deadline")
	assert.ErrorIs(t, errs[4], disk)
	var u *c.UnavailableError
	assert.False(t, errors.As(errs[4], &u))
	assert.Equal(t, "Operation failed - received 0 responses and 2 failures (ALL, 3 required): a: <nil>; b: disk", errs[4].Error())
	// A reason that is itself a typed error is reachable with errors.As.
	inner := &c.ReadTimeoutError{Level: c.One, BlockFor: 1}
	f := &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Failures: 1, Reasons: map[string]error{"n2": inner}}
	require.ErrorAs(t, f, &rt)
	assert.Same(t, inner, rt)
}
