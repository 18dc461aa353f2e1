package coordinator_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// The replicas of staleTrio, placed in this order for t/k.
const trio1, trio2, trio3 = "dc1-r1-n1", "dc1-r2-n2", "dc1-r3-n3"

// staleTrio returns a cluster of three replicas of t/k answering in 10, 20
// and 40 ms, which hold v="new" at 2000 but for stale ones, which hold the
// partition it returns, v="old" at 1000.
func staleTrio(t *testing.T, stale ...string) (*replicatest.Cluster, replica.Partition) {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3), Seed: 1})
	require.NoError(t, err)
	require.NoError(t, cl.Pin("t", "k", trio1, trio2, trio3))
	require.NoError(t, cl.Seed("t", replica.NewPartition("k", replica.NewRow("", replica.Live("v", "new", 2000)))))
	old := replica.NewPartition("k", replica.NewRow("", replica.Live("v", "old", 1000)))
	require.NoError(t, cl.SeedOn("t", old, stale...))
	for id, d := range map[string]time.Duration{trio1: 10 * time.Millisecond, trio2: 20 * time.Millisecond, trio3: 40 * time.Millisecond} {
		require.NoError(t, cl.Replica(id).SetLatency(replicatest.Constant(d)))
	}
	return cl, old
}
