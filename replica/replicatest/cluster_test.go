package replicatest_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func dc(name string, racks, nodes int) replicatest.Datacenter {
	return replicatest.Datacenter{Name: name, Racks: racks, Nodes: nodes}
}

func newCluster(t *testing.T, cfg replicatest.ClusterConfig) *replicatest.Cluster {
	t.Helper()
	c, err := replicatest.NewCluster(cfg)
	require.NoError(t, err)
	return c
}

func threeByThree(t *testing.T) *replicatest.Cluster {
	return newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 3, 3), dc("dc2", 3, 3), dc("dc3", 3, 3)},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3, "dc3": 3}),
		Seed:        1,
	})
}

func ids(rs []replica.Replica) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Endpoint().ID
	}
	return out
}

func locate(t *testing.T, c *replicatest.Cluster, key string) []replica.Replica {
	t.Helper()
	rs, _, err := c.Locate(table, key)
	require.NoError(t, err)
	return rs
}

func TestNewClusterRejectsInvalidConfig(t *testing.T) {
	one := []replicatest.Datacenter{dc("dc1", 1, 3)}
	cases := map[string]replicatest.ClusterConfig{
		"no datacenters":        {Replication: consistency.Simple(1)},
		"empty name":            {Datacenters: []replicatest.Datacenter{dc("", 1, 3)}, Replication: consistency.Simple(1)},
		"duplicate name":        {Datacenters: []replicatest.Datacenter{dc("dc1", 1, 3), dc("dc1", 1, 3)}, Replication: consistency.Simple(1)},
		"no nodes":              {Datacenters: []replicatest.Datacenter{dc("dc1", 0, 0)}, Replication: consistency.Simple(1)},
		"negative racks":        {Datacenters: []replicatest.Datacenter{dc("dc1", -1, 3)}, Replication: consistency.Simple(1)},
		"more racks than nodes": {Datacenters: []replicatest.Datacenter{dc("dc1", 4, 3)}, Replication: consistency.Simple(1)},
		"negative tokens":       {Datacenters: one, Replication: consistency.Simple(1), TokensPerNode: -1},
		"zero replication":      {Datacenters: one},
		"simple too large":      {Datacenters: one, Replication: consistency.Simple(4)},
		"unknown datacenter":    {Datacenters: one, Replication: consistency.NetworkTopology(map[string]int{"dc1": 1, "dc9": 1})},
		"datacenter too small":  {Datacenters: one, Replication: consistency.NetworkTopology(map[string]int{"dc1": 4})},
		"invalid option":        {Datacenters: one, Replication: consistency.Simple(1), Options: []replicatest.Option{replicatest.WithWorkers(-1, 0)}},
		"too many tokens":       {Datacenters: one, Replication: consistency.Simple(1), TokensPerNode: 1537},        // Cassandra's limit is 1536
		"MaxInt tokens":         {Datacenters: one, Replication: consistency.Simple(1), TokensPerNode: math.MaxInt}, // panicked making the ring
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := replicatest.NewCluster(cfg)
			require.ErrorIs(t, err, replicatest.ErrInvalidConfig)
			var ce *replicatest.ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Nil(t, c)
		})
	}
	_, err := replicatest.NewCluster(replicatest.ClusterConfig{Datacenters: one, Replication: consistency.Simple(0)})
	require.ErrorIs(t, err, consistency.ErrInvalidReplication, "the replication's own error is wrapped")
}

func TestClusterNamesNodesByDatacenterRackAndNumber(t *testing.T) {
	c := newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("east", 2, 3), dc("west", 0, 1)},
		Replication: consistency.Simple(2),
	})
	var eps []replica.Endpoint
	for _, r := range c.Replicas() {
		eps = append(eps, r.Endpoint())
		assert.Same(t, r, c.Replica(r.Endpoint().ID))
	}
	assert.Equal(t, []replica.Endpoint{
		{ID: "east-r1-n1", Datacenter: "east", Rack: "r1"},
		{ID: "east-r2-n2", Datacenter: "east", Rack: "r2"},
		{ID: "east-r1-n3", Datacenter: "east", Rack: "r1"},
		{ID: "west-r1-n1", Datacenter: "west", Rack: "r1"},
	}, eps)
	assert.Nil(t, c.Replica("nope"))
	assert.Equal(t, consistency.Simple(2), c.Replication())
}

func TestLocateSimpleTakesDistinctNodesInRingOrder(t *testing.T) {
	// With one token per node and RF = N, every key's replicas are a
	// rotation of the same cycle: the ring's order.
	c := newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 2, 5)}, Replication: consistency.Simple(5), TokensPerNode: 1, Seed: 3,
	})
	cycle := ids(locate(t, c, "k0"))
	starts := map[string]bool{}
	for i := range 200 {
		got := ids(locate(t, c, "k"+strconv.Itoa(i)))
		j := slices.Index(cycle, got[0])
		require.Equal(t, append(slices.Clone(cycle[j:]), cycle[:j]...), got)
		starts[got[0]] = true
	}
	assert.Len(t, starts, 5, "every node owns some keys")
}

func TestLocateNetworkTopologyFillsEachDatacenterAcrossRacks(t *testing.T) {
	c := newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 3, 6), dc("dc2", 2, 4), dc("dc3", 1, 2)},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3, "dc3": 0}),
		Seed:        9,
	})
	for i := range 300 {
		rs := locate(t, c, "k"+strconv.Itoa(i))
		require.Len(t, rs, 6)
		racks := map[string]map[string]int{}
		for _, r := range rs {
			ep := r.Endpoint()
			if racks[ep.Datacenter] == nil {
				racks[ep.Datacenter] = map[string]int{}
			}
			racks[ep.Datacenter][ep.Rack]++
		}
		assert.Equal(t, map[string]int{"r1": 1, "r2": 1, "r3": 1}, racks["dc1"], "three racks for three replicas")
		assert.Len(t, racks["dc2"], 2, "both racks used, one twice")
		assert.NotContains(t, racks, "dc3")
	}
}

func TestPlacementFollowsTheSeed(t *testing.T) {
	cfg := replicatest.ClusterConfig{Datacenters: []replicatest.Datacenter{dc("dc1", 3, 9)}, Replication: consistency.Simple(3), Seed: 1}
	a, b := newCluster(t, cfg), newCluster(t, cfg)
	cfg.Seed = 2
	assert.Greater(t, samePlacement(t, a, b, newCluster(t, cfg)), 50)
}

// samePlacement requires a and b to place 100 keys alike and returns on
// how many of them other differs from a.
func samePlacement(t *testing.T, a, b, other *replicatest.Cluster) (differ int) {
	for i := range 100 {
		key := "k" + strconv.Itoa(i)
		require.Equal(t, ids(locate(t, a, key)), ids(locate(t, b, key)))
		if !slices.Equal(ids(locate(t, a, key)), ids(locate(t, other, key))) {
			differ++
		}
	}
	return differ
}

func TestLocateReturnsASharedSliceAndTheReplication(t *testing.T) {
	c := threeByThree(t)
	rs, rep, err := c.Locate(table, "k")
	require.NoError(t, err)
	assert.Equal(t, c.Replication(), rep)
	again := locate(t, c, "k")
	assert.Same(t, &rs[0], &again[0], "one slice per token range, shared")
	for _, r := range rs {
		_, ok := r.(*replicatest.Replica)
		assert.True(t, ok)
	}
}

func TestPinOverridesPlacement(t *testing.T) {
	c := threeByThree(t)
	ring := ids(locate(t, c, "k"))
	require.NoError(t, c.Pin(table, "k", "dc2-r2-n2", "dc1-r1-n1", "dc3-r3-n3"))
	assert.Equal(t, []string{"dc2-r2-n2", "dc1-r1-n1", "dc3-r3-n3"}, ids(locate(t, c, "k")))
	rs, _, err := c.Locate("other table", "k")
	require.NoError(t, err)
	assert.Equal(t, ring, ids(rs), "a pin is per table")
	c.Unpin(table, "k")
	assert.Equal(t, ring, ids(locate(t, c, "k")))
}

func TestPinRejectsBadReplicaListsAndChangesNothing(t *testing.T) {
	c := threeByThree(t)
	ring := ids(locate(t, c, "k"))
	require.ErrorIs(t, c.Pin(table, "k", "dc1-r1-n1", "nope"), replicatest.ErrUnknownReplica)
	require.ErrorIs(t, c.Pin(table, "k", "dc1-r1-n1", "dc1-r1-n1"), replicatest.ErrInvalidConfig)
	require.ErrorIs(t, c.Pin(table, "k"), replicatest.ErrInvalidConfig)
	assert.Equal(t, ring, ids(locate(t, c, "k")))

	// More than the replication places: the coordinator would refuse it.
	c = newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 1, 4)}, Replication: consistency.Simple(3),
	})
	ring = ids(locate(t, c, "k"))
	require.ErrorIs(t, c.Pin(table, "k", "dc1-r1-n1", "dc1-r1-n2", "dc1-r1-n3", "dc1-r1-n4"), replicatest.ErrInvalidConfig)
	assert.Equal(t, ring, ids(locate(t, c, "k")))

	// Or more in one datacenter than its factor there, within the total.
	c = newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 1, 2), dc("dc2", 1, 2)},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 1, "dc2": 2}),
	})
	ring = ids(locate(t, c, "k"))
	require.ErrorIs(t, c.Pin(table, "k", "dc1-r1-n1", "dc1-r1-n2"), replicatest.ErrInvalidConfig)
	assert.Equal(t, ring, ids(locate(t, c, "k")))
	require.NoError(t, c.Pin(table, "k", "dc2-r1-n2", "dc1-r1-n2", "dc2-r1-n1"))
}

func TestClusterTablesRestrictWhatExists(t *testing.T) {
	c := newCluster(t, replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{dc("dc1", 1, 3)}, Replication: consistency.Simple(3), Tables: []string{table},
	})
	_, _, err := c.Locate("users", "k")
	require.ErrorIs(t, err, replicatest.ErrUnknownTable)
	require.ErrorIs(t, c.Seed("users", partition("k", "v", 1)), replicatest.ErrUnknownTable)
	require.ErrorIs(t, c.SeedOn("users", partition("k", "v", 1), "dc1-r1-n1"), replicatest.ErrUnknownTable)
	require.ErrorIs(t, c.Pin("users", "k", "dc1-r1-n1"), replicatest.ErrUnknownTable)
	assert.Len(t, locate(t, c, "k"), 3)
}

func TestLiveness(t *testing.T) {
	c := threeByThree(t)
	n := c.Replica("dc2-r1-n1")
	assert.True(t, c.IsAlive(n.Endpoint()))
	require.NoError(t, c.SetAlive("dc2-r1-n1", false))
	assert.False(t, c.IsAlive(n.Endpoint()))
	assert.True(t, c.IsAlive(c.Replica("dc2-r2-n2").Endpoint()))
	_, err := n.Read(t.Context(), replica.Command{Table: table, Key: "k"})
	require.NoError(t, err, "the liveness view does not change how the replica answers")
	require.NoError(t, c.SetAlive("dc2-r1-n1", true))
	assert.True(t, c.IsAlive(n.Endpoint()))
	assert.False(t, c.IsAlive(replica.Endpoint{ID: "stranger"}))
	require.ErrorIs(t, c.SetAlive("stranger", false), replicatest.ErrUnknownReplica)
}

func TestClusterSeedReachesExactlyTheKeysReplicas(t *testing.T) {
	c := threeByThree(t)
	p := partition("k", "v", 1)
	require.NoError(t, c.Seed(table, p))
	owners := ids(locate(t, c, "k"))
	for _, r := range c.Replicas() {
		got, held := r.Partition(table, "k")
		assert.Equal(t, slices.Contains(owners, r.Endpoint().ID), held, r.Endpoint().ID)
		if held {
			assert.True(t, got.Equal(p))
		}
	}
	assert.Zero(t, c.Stats().Reads, "seeding sends no request")
}

func TestClusterSeedOnMakesSomeReplicasStale(t *testing.T) {
	c := threeByThree(t)
	owners := ids(locate(t, c, "k"))
	require.NoError(t, c.Seed(table, partition("k", "new", 2)))
	require.NoError(t, c.SeedOn(table, partition("k", "old", 1), owners[1]))
	for i, id := range owners[:3] {
		got, _ := c.Replica(id).Partition(table, "k")
		assert.Equal(t, map[bool]string{true: "old", false: "new"}[i == 1], string(got.Rows[0].Cells[0].Value))
	}
	require.ErrorIs(t, c.SeedOn(table, partition("k", "x", 3), owners[0], "nope"), replicatest.ErrUnknownReplica)
	bad := replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "b"}, {Clustering: "a"}}}
	require.ErrorIs(t, c.Seed(table, bad), replica.ErrInvalidPartition)
	got, _ := c.Replica(owners[0]).Partition(table, "k")
	assert.Equal(t, "new", string(got.Rows[0].Cells[0].Value), "a failed seed changes nothing")
}

func TestClusterOptionsReachEveryReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newCluster(t, replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{dc("dc1", 1, 3)}, Replication: consistency.Simple(3),
			Options: []replicatest.Option{latency(replicatest.Constant(ms(4)))},
		})
		for _, r := range c.Replicas() {
			assert.Equal(t, ms(4), readTook(t, r))
		}
		assert.Equal(t, int64(3), c.Stats().Reads)
	})
}

// A WithSeed among the cluster's options seeds the cluster's replicas as
// ClusterConfig.Seed does: each its own stream, so that their random pauses
// do not coincide.
func TestClusterOptionsSeedGivesEachReplicaItsOwnDraws(t *testing.T) {
	draws := func(opts ...replicatest.Option) [][]time.Duration {
		var out [][]time.Duration
		synctest.Test(t, func(t *testing.T) {
			c := newCluster(t, replicatest.ClusterConfig{
				Datacenters: []replicatest.Datacenter{dc("dc1", 1, 3)}, Replication: consistency.Simple(3),
				Options: append(opts, with(replicatest.Behavior{Latency: replicatest.Uniform(ms(1), ms(100))})),
			})
			for _, r := range c.Replicas() {
				out = append(out, []time.Duration{readTook(t, r), readTook(t, r), readTook(t, r)})
			}
		})
		return out
	}
	seeded := draws(replicatest.WithSeed(7))
	assert.NotEqual(t, seeded[0], seeded[1])
	assert.NotEqual(t, seeded[1], seeded[2])
	assert.Equal(t, seeded, draws(replicatest.WithSeed(7)))
	assert.NotEqual(t, seeded, draws(replicatest.WithSeed(8)))
	assert.NotEqual(t, seeded, draws(), "the option's seed replaces the cluster's")
}

func TestClusterSlowdownMultipliesEveryReplicas(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newCluster(t, replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{dc("dc1", 1, 2)}, Replication: consistency.Simple(2),
			Options: []replicatest.Option{latency(replicatest.Constant(ms(10)))},
		})
		require.NoError(t, c.SetSlowdown(2))
		a, b := c.Replicas()[0], c.Replicas()[1]
		require.NoError(t, b.SetSlowdown(1.5))
		assert.Equal(t, ms(20), readTook(t, a))
		assert.Equal(t, ms(30), readTook(t, b), "the factors multiply")
		require.ErrorIs(t, c.SetSlowdown(-1), replicatest.ErrInvalidConfig)
		assert.Equal(t, ms(20), readTook(t, a), "an invalid factor changes nothing")
		require.NoError(t, c.SetSlowdown(0))
		assert.Equal(t, ms(10), readTook(t, a))
	})
}

func TestClusterPauseWindowsShareTheClustersStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newCluster(t, replicatest.ClusterConfig{Datacenters: []replicatest.Datacenter{dc("dc1", 1, 3)}, Replication: consistency.Simple(3)})
		time.Sleep(ms(20))
		r := c.Replicas()[2]
		require.NoError(t, r.AddPause(replicatest.Window{Start: ms(10), End: ms(80)}))
		assert.Equal(t, ms(60), readTook(t, r), "the window is measured from the cluster's creation")
		assert.Zero(t, readTook(t, c.Replicas()[0]))
	})
}

func TestClusterReplicasIsACopy(t *testing.T) {
	c := threeByThree(t)
	rs := c.Replicas()
	rs[0] = nil
	assert.NotNil(t, c.Replicas()[0])
	assert.True(t, errors.Is(c.SetAlive("", true), replicatest.ErrUnknownReplica))
}

func TestTokensPerNodeDefaultsToSixteen(t *testing.T) {
	cfg := func(tokens int) replicatest.ClusterConfig {
		return replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{dc("dc1", 3, 6)}, Replication: consistency.Simple(3), Seed: 4, TokensPerNode: tokens,
		}
	}
	assert.Positive(t, samePlacement(t, newCluster(t, cfg(0)), newCluster(t, cfg(16)), newCluster(t, cfg(8))))
}
