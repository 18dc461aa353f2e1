package consistency_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
)

// Each number in an error's message is the field it names, as in
// Cassandra's messages (WriteFailureException: "received %d responses and
// %d failures"): every field differs here, so that two swapped fields show.
func TestErrorMessagesPutEachNumberInItsPlace(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
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

// A replication factor of 0 is invalid, and Validate says why in the
// constructor's words, naming the factor or the empty datacenters, not the
// zero Replication's "no replicas" (Simple: must be at least 1;
// NetworkTopology: a datacenter may hold zero replicas, but not all of
// them).
func TestReplicationValidateSaysWhyAZeroFactorIsInvalid(t *testing.T) {
	for r, want := range map[*c.Replication]string{
		ptr(c.Simple(0)): "consistency: invalid replication: replication factor 0, must be at least 1",
		ptr(c.NetworkTopology(map[string]int{"dc1": 0, "dc2": 0})): "consistency: invalid replication: no datacenter holds a replica",
		ptr(c.NetworkTopology(map[string]int{})):                   "consistency: invalid replication: no datacenter holds a replica",
	} {
		err := r.Validate()
		assert.ErrorIs(t, err, c.ErrInvalidReplication, r.String())
		assert.EqualError(t, err, want, r.String())
	}
}

func ptr(r c.Replication) *c.Replication { return &r }
