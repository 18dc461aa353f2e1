package coordinator_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// The snitch ranks proximity groups of more than 16 replicas too (they
// once kept the locator's order): the first replica of the group, slow,
// is contacted by the read that measures it and by none after. At ONE
// over RF 17 few are ranked; at QUORUM over RF 40, 23 are; with seven
// datacenters of three, the remote group holds 18.
func TestSnitchRanksGroupsOfMoreThan16(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dcs   []replicatest.Datacenter
		repl  consistency.Replication
		level consistency.Level
	}{
		{"RF17/ONE", dcs(1, 17), consistency.Simple(17), consistency.One},
		{"RF40/QUORUM", dcs(1, 40), consistency.Simple(40), consistency.Quorum},
		{"7DCs/QUORUM", dcs(7, 3), threePerDC(7), consistency.Quorum},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
					Datacenters: tc.dcs, Replication: tc.repl, Seed: 1,
					Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
				})
				require.NoError(t, err)
				require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
				e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "NEVER")})
				slow := firstOfLastGroup(t, cl)
				e.behave(t, slow, constant(ms(10)))

				res, took, err := e.read(tc.level)
				require.NoError(t, err)
				assert.Equal(t, ms(10), took, "the first read measures the slow replica")
				require.True(t, contacted(res, slow))
				res, took, err = e.read(tc.level)
				require.NoError(t, err)
				assert.Equal(t, ms(1), took)
				assert.False(t, contacted(res, slow))
			})
		})
	}
}

// dcs is n datacenters dc1, dc2, … of nodes nodes on three racks each.
func dcs(n, nodes int) []replicatest.Datacenter {
	var out []replicatest.Datacenter
	for i := range n {
		out = append(out, replicatest.Datacenter{Name: fmt.Sprintf("dc%d", i+1), Racks: 3, Nodes: nodes})
	}
	return out
}

func threePerDC(n int) consistency.Replication {
	rf := map[string]int{}
	for i := range n {
		rf[fmt.Sprintf("dc%d", i+1)] = 3
	}
	return consistency.NetworkTopology(rf)
}

// firstOfLastGroup is the first replica of key, in the locator's order,
// of the last proximity group: the remote one when there is one.
func firstOfLastGroup(t *testing.T, cl *replicatest.Cluster) string {
	t.Helper()
	reps, _, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	for _, r := range reps {
		if r.Endpoint().Datacenter != "dc1" {
			return r.Endpoint().ID
		}
	}
	return reps[0].Endpoint().ID
}
