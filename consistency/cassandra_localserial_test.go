package consistency_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
)

// Documented differences from apache/cassandra's
// src/java/org/apache/cassandra/db/ConsistencyLevel.java, pinned.

// Cassandra declares LOCAL_SERIAL(9) without isDCLocal, so
// ReplicaPlans.assureSufficientLiveReplicas sends it through its default
// branch, which counts every live replica against localQuorumFor: with DC1
// down to one replica of NTS {DC1: 3, DC2: 3} it finds 4 >= 2. The Paxos
// round that a LOCAL_SERIAL operation runs (ReplicaPlans.forPaxos) filters
// to the local datacenter and then needs 3/2+1 = 2 of its replicas, so the
// operation is unavailable all the same. readpath's DESIGN.md §2.1 makes
// LOCAL_SERIAL DC-local, and AssureSufficientLive answers what Paxos would.
func TestCassandraLocalSerialCountsTheLocalDatacenterAsPaxosDoes(t *testing.T) {
	assert.True(t, c.LocalSerial.IsDatacenterLocal())
	r := c.NetworkTopology(map[string]int{"DC1": 3, "DC2": 3})
	err := c.AssureSufficientLive(c.LocalSerial, r, "DC1", map[string]int{"DC1": 1, "DC2": 3})
	var u *c.UnavailableError
	require.ErrorAs(t, err, &u)
	assert.Equal(t, c.UnavailableError{Level: c.LocalSerial, Required: 2, Alive: 1, Datacenter: "DC1"}, *u)
	// SERIAL's Paxos round needs a majority of all six, as QUORUM does.
	assert.NoError(t, c.AssureSufficientLive(c.Serial, r, "DC1", map[string]int{"DC1": 1, "DC2": 3}))
}

// Cassandra 4.0 added NODE_LOCAL (code 11, DC-local) for internal and test
// use; the native protocol specification lists codes 0 to 10 only, which
// are readpath's levels.
func TestCassandraNodeLocalIsNoLevel(t *testing.T) {
	_, err := c.ParseLevel("NODE_LOCAL")
	assert.ErrorIs(t, err, c.ErrUnknownLevel)
	assert.False(t, c.Level(11).Valid())
}
