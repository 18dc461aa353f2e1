package consistency_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
)

func TestAssureSufficientLiveEveryLevel(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	tests := []struct {
		level    c.Level
		live     map[string]int
		required int // 0: sufficient
		alive    int
		dc       string
	}{
		{c.Any, map[string]int{}, 0, 0, ""},
		{c.One, map[string]int{"dc2": 1}, 0, 0, ""},
		{c.One, map[string]int{}, 1, 0, ""},
		{c.Two, map[string]int{"dc1": 1, "dc2": 1}, 0, 0, ""},
		{c.Two, map[string]int{"dc2": 1}, 2, 1, ""},
		{c.Three, map[string]int{"dc1": 2}, 3, 2, ""},
		{c.Three, map[string]int{"dc1": 1, "dc2": 2}, 0, 0, ""},
		{c.Quorum, map[string]int{"dc1": 1, "dc2": 3}, 0, 0, ""},
		{c.Quorum, map[string]int{"dc1": 3}, 4, 3, ""},
		{c.Serial, map[string]int{"dc1": 3}, 4, 3, ""},
		{c.All, map[string]int{"dc1": 3, "dc2": 2}, 6, 5, ""},
		{c.All, map[string]int{"dc1": 3, "dc2": 3}, 0, 0, ""},
		// DC-local levels count the local DC (dc1) only, and name it.
		{c.LocalOne, map[string]int{"dc2": 3}, 1, 0, "dc1"},
		{c.LocalOne, map[string]int{"dc1": 1}, 0, 0, ""},
		{c.LocalQuorum, map[string]int{"dc1": 1, "dc2": 3}, 2, 1, "dc1"},
		{c.LocalQuorum, map[string]int{"dc1": 2}, 0, 0, ""},
		{c.LocalSerial, map[string]int{"dc1": 1, "dc2": 3}, 2, 1, "dc1"},
		// EACH_QUORUM names the datacenter that falls short.
		{c.EachQuorum, map[string]int{"dc1": 3, "dc2": 1}, 2, 1, "dc2"},
		{c.EachQuorum, map[string]int{"dc1": 1, "dc2": 3}, 2, 1, "dc1"},
		{c.EachQuorum, map[string]int{"dc1": 2, "dc2": 2}, 0, 0, ""},
	}
	for _, tt := range tests {
		err := c.AssureSufficientLive(tt.level, r, "dc1", tt.live)
		if tt.required == 0 {
			assert.NoError(t, err, "%s with %v", tt.level, tt.live)
			continue
		}
		var u *c.UnavailableError
		require.True(t, errors.As(err, &u), "%s with %v: %v", tt.level, tt.live, err)
		assert.Equal(t, c.UnavailableError{Level: tt.level, Required: tt.required, Alive: tt.alive, Datacenter: tt.dc}, *u)
	}
}

func TestAssureSufficientLiveSimple(t *testing.T) {
	r := c.Simple(3)
	assert.NoError(t, c.AssureSufficientLive(c.Quorum, r, "", map[string]int{"": 2}))
	assert.NoError(t, c.AssureSufficientLive(c.EachQuorum, r, "", map[string]int{"": 2}))
	err := c.AssureSufficientLive(c.EachQuorum, r, "", map[string]int{"": 1})
	var u *c.UnavailableError
	require.ErrorAs(t, err, &u)
	assert.Equal(t, "", u.Datacenter)
	assert.Equal(t, 2, u.Required)

	// Replicas without datacenters: a DC-local level has none to name.
	err = c.AssureSufficientLive(c.LocalQuorum, r, "", map[string]int{"": 1})
	require.ErrorAs(t, err, &u)
	assert.Equal(t, "", u.Datacenter)
	assert.EqualError(t, err, "Cannot achieve consistency level LOCAL_QUORUM (2 required but only 1 alive)")
}

// A misspelt local datacenter holds no replica, and the error names it.
func TestAssureSufficientLiveNamesAMisspeltLocalDatacenter(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3})
	err := c.AssureSufficientLive(c.LocalOne, r, "DC1", map[string]int{"dc1": 3})
	assert.EqualError(t, err, "Cannot achieve consistency level LOCAL_ONE in DC DC1 (1 required but only 0 alive)")
}

func TestAssureSufficientLiveEachQuorumSkipsEmptyDatacenter(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 0})
	assert.NoError(t, c.AssureSufficientLive(c.EachQuorum, r, "dc1", map[string]int{"dc1": 2}))
}

func TestAssureSufficientLiveRejectsBadInput(t *testing.T) {
	assert.ErrorIs(t, c.AssureSufficientLive(c.One, c.Simple(0), "", nil), c.ErrInvalidReplication)
	assert.ErrorIs(t, c.AssureSufficientLive(c.One, c.Replication{}, "", nil), c.ErrInvalidReplication)
	assert.ErrorIs(t, c.AssureSufficientLive(c.Level(99), c.Simple(3), "", nil), c.ErrUnknownLevel)
}

// Counts that add up past MaxInt count as MaxInt: the sum wrapped, and a
// read with more than enough replicas was refused as having a negative
// number alive (found by review).
func TestAssureSufficientLiveSumDoesNotWrap(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	assert.NoError(t, c.AssureSufficientLive(c.Quorum, r, "dc1", map[string]int{"dc1": math.MaxInt, "dc2": 1}))
	assert.NoError(t, c.AssureSufficientLive(c.All, r, "dc1", map[string]int{"dc1": math.MaxInt, "dc2": math.MaxInt}))
}
