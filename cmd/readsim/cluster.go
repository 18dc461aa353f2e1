package main

import (
	"math/rand/v2"
	"strconv"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

const table = "readsim"

// keyCount is the number of partitions every run reads from.
const keyCount = 4000

// replicationFactor is every cluster's: one datacenter of three replicas.
const replicationFactor = 3

// newCluster builds the scenario's three replicas (RF 3, one datacenter,
// three racks), seeds every key on all of them, and makes the scenario's
// stale data. The same seed builds the same cluster.
func newCluster(s scenario, seed uint64) (*replicatest.Cluster, []string, error) {
	// Replicas correct their timers' lateness (see WithTimerCorrection): a
	// replica modelled at 2 ms answers in 2 ms on average, as the model says,
	// not 2.3 to 3 ms as an idle Go program's timers would make it.
	opts := []replicatest.Option{replicatest.WithBehavior(s.behavior), replicatest.WithTimerCorrection()}
	if s.workers > 0 {
		opts = append(opts, replicatest.WithWorkers(s.workers, 64*s.workers))
	}
	c, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: replicationFactor}},
		Replication: consistency.Simple(replicationFactor),
		Seed:        seed,
		// Many tokens per node share the ring evenly, so that no replica is
		// first in line for more keys than the others.
		TokensPerNode: 256,
		Options:       opts,
	})
	if err != nil {
		return nil, nil, err
	}
	keys := make([]string, keyCount)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(i)
		if err := c.Seed(table, userRow(keys[i], "current", 2_000_000)); err != nil {
			return nil, nil, err
		}
	}
	if err := seedStale(c, keys, s.staleKeys, seed); err != nil {
		return nil, nil, err
	}
	return c, keys, nil
}

// seedStale gives the first replica an older version of a fraction of the keys.
func seedStale(c *replicatest.Cluster, keys []string, fraction float64, seed uint64) error {
	stale := c.Replicas()[0].Endpoint().ID
	for i, isStale := range staleKeySet(len(keys), fraction, seed) {
		if isStale {
			if err := c.SeedOn(table, userRow(keys[i], "older", 1_000_000), stale); err != nil {
				return err
			}
		}
	}
	return nil
}

// staleKeySet picks which of n keys the first replica holds an older
// version of: each with chance fraction, the same ones for the same seed.
// It returns nil for a fraction of 0.
func staleKeySet(n int, fraction float64, seed uint64) []bool {
	if fraction == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	stale := make([]bool, n)
	for i := range stale {
		stale[i] = rng.Float64() < fraction
	}
	return stale
}

// userRow is a small user profile written at ts.
func userRow(key, version string, ts int64) replica.Partition {
	return replica.NewPartition(key, replica.NewRow("profile",
		replica.Live("email", key+"@example.com", ts),
		replica.Live("name", version, ts),
		replica.Live("plan", "free", ts),
	))
}
