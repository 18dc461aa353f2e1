package consistency_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
)

// Ports of apache/cassandra's src/java/org/apache/cassandra/db/ConsistencyLevel.java
// (blockFor, quorumFor, localQuorumFor, eachQuorumForRead) and of
// src/java/org/apache/cassandra/locator/ReplicaPlans.java
// (isSufficientLiveReplicasForRead, assureSufficientLiveReplicas), over the
// keyspaces of test/unit/org/apache/cassandra/db/ConsistencyLevelTest.java:
// KeyspaceParams.simple(3) and KeyspaceParams.nts("DC1", 3, "DC2", 3).

// ConsistencyLevel.blockFor over ConsistencyLevelTest's two keyspaces, seen
// from DC1 and from DC3, which the NTS keyspace does not name:
// localQuorumFor gives it NTS's ReplicationFactor.ZERO, 0/2+1 = 1, and under
// SimpleStrategy it falls back to quorumFor whatever the datacenter.
func TestCassandraBlockForConsistencyLevelTestKeyspaces(t *testing.T) {
	simple := c.Simple(3)
	nts := c.NetworkTopology(map[string]int{"DC1": 3, "DC2": 3})
	tests := []struct {
		level                    c.Level
		simple, ntsDC1, ntsOther int
	}{
		{c.Any, 1, 1, 1},
		{c.One, 1, 1, 1},
		{c.LocalOne, 1, 1, 1},
		{c.Two, 2, 2, 2},
		{c.Three, 3, 3, 3},
		{c.Quorum, 2, 4, 4},
		{c.Serial, 2, 4, 4},
		{c.LocalQuorum, 2, 2, 1},
		{c.LocalSerial, 2, 2, 1},
		{c.EachQuorum, 2, 4, 4},
		{c.All, 3, 6, 6},
	}
	for _, tt := range tests {
		for _, dc := range []string{"DC1", "DC3"} {
			assert.Equal(t, tt.simple, tt.level.BlockFor(simple, dc), "%v simple(3) from %s", tt.level, dc)
		}
		assert.Equal(t, tt.ntsDC1, tt.level.BlockFor(nts, "DC1"), "%v nts from DC1", tt.level)
		assert.Equal(t, tt.ntsOther, tt.level.BlockFor(nts, "DC3"), "%v nts from DC3", tt.level)
	}
	// eachQuorumForRead: localQuorumFor of every datacenter of the strategy.
	assert.Equal(t, map[string]int{"DC1": 2, "DC2": 2}, c.EachQuorumFor(nts))
}

// ReplicaPlans.assureSufficientLiveReplicas under SimpleStrategy whose
// replicas sit in two datacenters, as the snitch places them: LOCAL_ONE and
// LOCAL_QUORUM still count only the live replicas of our datacenter
// (countInOurDc), LOCAL_QUORUM against quorumFor(keyspace) = 2 of RF 3;
// EACH_QUORUM falls through to the default branch and counts every live
// replica; ANY needs none ("local hint is acceptable").
func TestCassandraSufficientLiveUnderSimpleStrategyAcrossDatacenters(t *testing.T) {
	r := c.Simple(3)
	tests := []struct {
		level    c.Level
		live     map[string]int
		required int // 0: sufficient
		alive    int
		dc       string
	}{
		{c.Any, map[string]int{}, 0, 0, ""},
		{c.LocalOne, map[string]int{"DC2": 3}, 1, 0, "DC1"},
		{c.LocalOne, map[string]int{"DC1": 1, "DC2": 2}, 0, 0, ""},
		{c.LocalQuorum, map[string]int{"DC1": 1, "DC2": 2}, 2, 1, "DC1"},
		{c.LocalQuorum, map[string]int{"DC1": 2, "DC2": 1}, 0, 0, ""},
		{c.EachQuorum, map[string]int{"DC1": 1, "DC2": 1}, 0, 0, ""},
		{c.EachQuorum, map[string]int{"DC2": 1}, 2, 1, ""},
		{c.Quorum, map[string]int{"DC2": 2}, 0, 0, ""},
		{c.All, map[string]int{"DC1": 1, "DC2": 1}, 3, 2, ""},
	}
	for _, tt := range tests {
		err := c.AssureSufficientLive(tt.level, r, "DC1", tt.live)
		if tt.required == 0 {
			assert.NoError(t, err, "%v with %v", tt.level, tt.live)
			continue
		}
		var u *c.UnavailableError
		require.ErrorAs(t, err, &u, "%v with %v", tt.level, tt.live)
		assert.Equal(t, c.UnavailableError{Level: tt.level, Required: tt.required, Alive: tt.alive, Datacenter: tt.dc}, *u)
	}
}

// ReplicaPlans.assureSufficientLiveReplicas under ConsistencyLevelTest's NTS
// keyspace, with the numbers of each UnavailableException.create: LOCAL_ONE
// requires 1 (it passes the constant), EACH_QUORUM names the datacenter
// with its own quorum and live count, the default branch counts every
// datacenter, a datacenter the strategy does not name included.
func TestCassandraSufficientLiveUnderNetworkTopology(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"DC1": 3, "DC2": 3})
	tests := []struct {
		level c.Level
		live  map[string]int
		want  string // "": sufficient
	}{
		{c.LocalOne, map[string]int{"DC2": 3}, "Cannot achieve consistency level LOCAL_ONE in DC DC1 (1 required but only 0 alive)"},
		{c.LocalQuorum, map[string]int{"DC1": 2}, ""},
		{c.LocalQuorum, map[string]int{"DC1": 1, "DC2": 3}, "Cannot achieve consistency level LOCAL_QUORUM in DC DC1 (2 required but only 1 alive)"},
		{c.EachQuorum, map[string]int{"DC1": 3, "DC2": 1}, "Cannot achieve consistency level EACH_QUORUM in DC DC2 (2 required but only 1 alive)"},
		{c.EachQuorum, map[string]int{"DC1": 2, "DC2": 2, "DC3": 5}, ""},
		{c.EachQuorum, map[string]int{"DC1": 2, "DC3": 5}, "Cannot achieve consistency level EACH_QUORUM in DC DC2 (2 required but only 0 alive)"},
		{c.Quorum, map[string]int{"DC1": 3, "DC3": 1}, ""},
		{c.Quorum, map[string]int{"DC1": 3}, "Cannot achieve consistency level QUORUM (4 required but only 3 alive)"},
		{c.Three, map[string]int{"DC2": 2}, "Cannot achieve consistency level THREE (3 required but only 2 alive)"},
		{c.All, map[string]int{"DC1": 3, "DC2": 2}, "Cannot achieve consistency level ALL (6 required but only 5 alive)"},
	}
	for _, tt := range tests {
		err := c.AssureSufficientLive(tt.level, r, "DC1", tt.live)
		if tt.want == "" {
			assert.NoError(t, err, "%v with %v", tt.level, tt.live)
			continue
		}
		assert.EqualError(t, err, tt.want, "%v with %v", tt.level, tt.live)
	}
}

// ConsistencyLevel.validateForRead: "ANY ConsistencyLevel is only supported
// for writes"; every other level may be read at as far as this check goes
// (the serial levels then run Paxos, which readpath refuses: see the
// coordinator's ErrInvalidRequest).
func TestCassandraValidateForRead(t *testing.T) {
	err := c.Any.ValidateForRead()
	require.ErrorIs(t, err, c.ErrUnsupportedLevel)
	assert.Contains(t, err.Error(), "ANY ConsistencyLevel is only supported for writes")
	for _, l := range c.Levels()[1:] {
		assert.NoError(t, l.ValidateForRead(), l.String())
	}
}
