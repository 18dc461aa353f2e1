package consistency_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
)

func TestReplicationValidate(t *testing.T) {
	bad := map[string]c.Replication{
		"zero value":    {},
		"simple 0":      c.Simple(0),
		"simple -1":     c.Simple(-1),
		"negative dc":   c.NetworkTopology(map[string]int{"dc1": 3, "dc2": -1}),
		"all zero":      c.NetworkTopology(map[string]int{"dc1": 0, "dc2": 0}),
		"empty":         c.NetworkTopology(map[string]int{}),
		"empty dc name": c.NetworkTopology(map[string]int{"": 3}),
	}
	for name, r := range bad {
		assert.ErrorIs(t, r.Validate(), c.ErrInvalidReplication, name)
	}
	assert.NoError(t, c.Simple(1).Validate())
	assert.NoError(t, c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 0}).Validate())
}

func TestReplicationAccessors(t *testing.T) {
	src := map[string]int{"b": 2, "a": 3}
	r := c.NetworkTopology(src)
	src["a"] = 9 // the replication keeps its own copy
	assert.Equal(t, 5, r.Total())
	assert.Equal(t, 3, r.Factor("a"))
	assert.Equal(t, 0, r.Factor("z"))
	assert.False(t, r.IsSimple())
	assert.Equal(t, []c.DatacenterFactor{{"a", 3}, {"b", 2}}, r.Datacenters())
	assert.Equal(t, "NetworkTopology(a:3, b:2)", r.String())

	s := c.Simple(3)
	assert.True(t, s.IsSimple())
	assert.Equal(t, 3, s.Factor("anything"))
	assert.Nil(t, s.Datacenters())
	assert.Equal(t, "Simple(3)", s.String())
}

// Factors whose sum overflows int must not validate: {a: MaxInt, b: MaxInt,
// c: 3} summed to a Total of 1, so ALL and QUORUM asked for one replica.
func TestReplicationValidateRejectsOverflowingTotal(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	for name, rf := range map[string]map[string]int{
		"wraps to 1":        {"a": maxInt, "b": maxInt, "c": 3},
		"wraps to negative": {"a": maxInt, "b": 1},
	} {
		r := c.NetworkTopology(rf)
		err := r.Validate()
		assert.ErrorIs(t, err, c.ErrInvalidReplication, name)
		if err != nil {
			assert.NotContains(t, err.Error(), "no datacenter holds a replica", name)
		}
	}
}

// Datacenters returns a copy, as its doc says: a caller that sorts or edits
// the list changes neither the replication nor its arithmetic.
func TestReplicationDatacentersIsACopy(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"a": 3, "b": 2})
	dcs := r.Datacenters()
	dcs[0].Factor, dcs[1].Datacenter = 9, "z"
	assert.Equal(t, []c.DatacenterFactor{{"a", 3}, {"b", 2}}, r.Datacenters())
	assert.Equal(t, 4, c.EachQuorum.BlockFor(r, ""))
}

// A replication factor of 0 is invalid, and Validate says why in the
// constructor's words, naming the factor or the empty datacenters, not the
// zero Replication's "no replicas" (Simple: must be at least 1;
// NetworkTopology: a datacenter may hold zero replicas, but not all of
// them).
func TestReplicationValidateSaysWhyAZeroFactorIsInvalid(t *testing.T) {
	for _, tt := range []struct {
		r    c.Replication
		want string
	}{
		{c.Simple(0), "consistency: invalid replication: replication factor 0, must be at least 1"},
		{c.NetworkTopology(map[string]int{"dc1": 0, "dc2": 0}), "consistency: invalid replication: no datacenter holds a replica"},
		{c.NetworkTopology(map[string]int{}), "consistency: invalid replication: no datacenter holds a replica"},
	} {
		err := tt.r.Validate()
		assert.ErrorIs(t, err, c.ErrInvalidReplication, tt.r.String())
		assert.EqualError(t, err, tt.want, tt.r.String())
	}
}
