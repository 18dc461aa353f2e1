package coordinator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replayCase is one sequence of reads that must replay exactly.
type replayCase struct {
	policy string
	mode   repair.Mode
	level  consistency.Level
	paged  bool
}

// A sequential reader in a bubble replays exactly, as replicatest's doc
// promises, once each read's cancelled requests settle (synctest.Wait)
// before the next plans: the same seed and reads give the same traces,
// results, replica Stats and Metrics, hedges, mismatches and repairs
// included. Without the Wait the losers' snitch updates race the next
// read's plan: 3 of 40 runs of these cases parted.
func TestSequentialReadsReplayExactlyInABubble(t *testing.T) {
	for name, rc := range map[string]replayCase{
		"90p blocking quorum":       {policy: "90p", mode: repair.Blocking, level: consistency.Quorum},
		"ALWAYS async quorum":       {policy: "ALWAYS", mode: repair.Async, level: consistency.Quorum},
		"10ms none local_quorum":    {policy: "10ms", mode: repair.None, level: consistency.LocalQuorum, paged: true},
		"MIN(90p,5ms) blocking two": {policy: "MIN(90p,5ms)", mode: repair.Blocking, level: consistency.Two},
	} {
		t.Run(name, func(t *testing.T) {
			first := replayRun(t, rc)
			require.Contains(t, first, "hedged to", "the sequence must exercise hedges")
			assert.Equal(t, first, replayRun(t, rc))
		})
	}
}

// replayRun reads 60 keys of a two-datacenter cluster, a third of them
// stale on two replicas, in a bubble of its own, and renders everything
// observable.
func replayRun(t *testing.T, rc replayCase) string {
	var out strings.Builder
	synctest.Test(t, func(t *testing.T) {
		cl, c := replayCluster(t, rc)
		defer c.Close()
		start := time.Now()
		for i := range 60 {
			req := coordinator.Request{Table: "t", Key: fmt.Sprint("k", i%30), Level: rc.level}
			if rc.paged {
				req.PageSize = 2
			}
			for {
				res, err := c.Read(context.Background(), req)
				fmt.Fprintf(&out, "%d at %v: %v %v\n%s\n", i, time.Since(start), err, res.Partition, res.Trace)
				synctest.Wait() // the read's losers settle before the next plans
				if err != nil || res.PagingState == nil {
					break
				}
				req.PagingState = res.PagingState
			}
		}
		time.Sleep(10 * time.Second) // ASYNC repairs land
		for _, r := range cl.Replicas() {
			fmt.Fprintf(&out, "%s %v\n", r.Endpoint().ID, r.Stats())
		}
		fmt.Fprintf(&out, "%s\n", c.Metrics())
	})
	return out.String()
}

func replayCluster(t *testing.T, rc replayCase) (*replicatest.Cluster, *coordinator.Coordinator) {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 5}, {Name: "dc2", Racks: 2, Nodes: 4}},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2}), Seed: 11,
		Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{
			Latency:     replicatest.LogNormal(2*time.Millisecond, 0.5),
			PauseChance: 0.05, PauseLength: replicatest.Uniform(50*time.Millisecond, 100*time.Millisecond),
		})},
	})
	require.NoError(t, err)
	for k := range 30 {
		key := fmt.Sprint("k", k)
		var rows []replica.Row
		for r := range 6 {
			rows = append(rows, replica.NewRow(fmt.Sprint("r", r), replica.Live("col", "v2", 2)))
		}
		require.NoError(t, cl.Seed("t", replica.NewPartition(key, rows...)))
		if k%3 == 0 {
			rs, _, err := cl.Locate("t", key)
			require.NoError(t, err)
			require.NoError(t, cl.SeedOn("t", replica.NewPartition(key, replica.NewRow("r1", replica.Live("col", "v1", 1))), rs[k%5].Endpoint().ID))
			require.NoError(t, cl.SeedOn("t", replica.NewPartition(key, replica.NewRow("r0", replica.Live("col", "v3", 3))), rs[(k+1)%5].Endpoint().ID))
		}
	}
	spec, err := latency.ParseSpeculativeRetry(rc.policy)
	require.NoError(t, err)
	c, err := coordinator.New(coordinator.Config{
		Locator: cl, Liveness: cl, LocalDatacenter: "dc1",
		DefaultTable: coordinator.TableOptions{SpeculativeRetry: spec, ReadRepair: rc.mode},
	})
	require.NoError(t, err)
	return cl, c
}
