package replicatest_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica/replicatest"
)

// A cluster whose ring would hold more than 2,097,152 tokens (its nodes
// times its tokens per node) is refused with a ConfigError before
// anything is built: a Nodes mistyped ran out of memory building the
// ring, or, summed over datacenters, wrapped past math.MaxInt.
func TestNewClusterRefusesARingTooLarge(t *testing.T) {
	simple := consistency.Simple(1)
	cases := map[string]replicatest.ClusterConfig{
		"one past the bound at 16 tokens": {Datacenters: []replicatest.Datacenter{dc("dc1", 1, 1<<17+1)}, Replication: simple},
		"one past the bound at 1536 tokens": {
			Datacenters: []replicatest.Datacenter{dc("dc1", 1, 1366)}, Replication: simple, TokensPerNode: 1536,
		},
		"past the bound over two datacenters": {
			Datacenters: []replicatest.Datacenter{dc("dc1", 1, 1<<16), dc("dc2", 1, 1<<16+1)}, Replication: simple,
		},
		"MaxInt nodes": {Datacenters: []replicatest.Datacenter{dc("dc1", 3, math.MaxInt)}, Replication: simple},
		"nodes summing past MaxInt": {
			Datacenters: []replicatest.Datacenter{dc("dc1", 1, math.MaxInt), dc("dc2", 1, math.MaxInt)},
			Replication: consistency.Simple(3),
		},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := replicatest.NewCluster(cfg)
			require.ErrorIs(t, err, replicatest.ErrInvalidConfig)
			var ce *replicatest.ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Contains(t, ce.Reason, "2097152 tokens")
			assert.Nil(t, c)
		})
	}
}

// Below the bound, a cluster of many nodes over two datacenters is built.
func TestNewClusterBuildsARingBelowTheBound(t *testing.T) {
	c, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 1, 1000), dc("dc2", 1, 1000)},
		Replication: consistency.Simple(3), TokensPerNode: 1,
	})
	require.NoError(t, err)
	assert.Len(t, c.Replicas(), 2000)
}
