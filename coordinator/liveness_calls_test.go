package coordinator_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// askCounter counts the coordinator's questions to a Liveness.
type askCounter struct {
	l     coordinator.Liveness
	calls atomic.Int64
}

func (c *askCounter) IsAlive(ep replica.Endpoint) bool {
	c.calls.Add(1)
	return c.l.IsAlive(ep)
}

// dcsCluster is dcs datacenters of rf instant replicas on 3 racks each,
// every one a replica of every key at rf per datacenter.
func dcsCluster(t *testing.T, dcs, rf int) *replicatest.Cluster {
	var d []replicatest.Datacenter
	factors := map[string]int{}
	for i := 1; i <= dcs; i++ {
		name := fmt.Sprintf("dc%d", i)
		d = append(d, replicatest.Datacenter{Name: name, Racks: 3, Nodes: rf})
		factors[name] = rf
	}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: d, Replication: consistency.NetworkTopology(factors), Seed: 1,
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v", 1)))
	return cl
}

// A read that sends no hedge asks the Liveness view about each candidate
// once, when it plans. It looked for a hedge target after sending its
// contacts on every read, though only ALWAYS sends one there: a scan of
// the candidates, each checked against every request and asked about.
// Over 8 datacenters of 9 replicas, 10 QUORUM reads asked 1,016 times and
// 10 EACH_QUORUM reads 1,040, for 720 candidates.
func TestReadWithoutHedgeAsksLivenessOncePerCandidate(t *testing.T) {
	const dcs, rf = 8, 9
	for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.EachQuorum, consistency.All} {
		t.Run(level.String(), func(t *testing.T) {
			assert.Equal(t, int64(dcs*rf*10), livenessCalls(t, dcsCluster(t, dcs, rf), level, 10))
		})
	}
}

// livenessCalls returns how many times reads reads at level asked the
// Liveness view, with hedging off (NEVER), so that no hedge asks.
func livenessCalls(t *testing.T, cl *replicatest.Cluster, level consistency.Level, reads int) int64 {
	live := &askCounter{l: cl}
	c, err := coordinator.New(coordinator.Config{
		Locator: cl, Liveness: live, LocalDatacenter: "dc1", DefaultTable: policy(t, "NEVER"),
	})
	require.NoError(t, err)
	defer c.Close()
	for range reads {
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
		require.NoError(t, err)
	}
	return live.calls.Load()
}

// A DC-local read asks the Liveness view about the local replicas only:
// it can contact no other. It asked about every replica of every
// datacenter (8 datacenters of 9: 10 LOCAL_ONE reads asked 720 times, not
// 90), a cost that grew with the remote datacenters, as would that of a
// Liveness that does real work per question.
func TestDatacenterLocalReadAsksLivenessOfLocalReplicasOnly(t *testing.T) {
	const rf = 9
	for _, level := range []consistency.Level{consistency.LocalOne, consistency.LocalQuorum} {
		t.Run(level.String(), func(t *testing.T) {
			for _, dcs := range []int{1, 2, 8} {
				assert.Equal(t, int64(rf*10), livenessCalls(t, dcsCluster(t, dcs, rf), level, 10), "%d datacenters", dcs)
			}
		})
	}
}
