package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// A node replaced under its ID by one in another rack is listed in
// Metrics().Replicas where it now is, once a read has planned it, whether
// or not ForgetReplica gave it a fresh start.
func TestReplicaMetricsFollowAnIDIntoItsNewRack(t *testing.T) {
	for _, forget := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			tc := newTopoCluster(t)
			c, err := coordinator.New(coordinator.Config{Locator: tc.loc, LocalDatacenter: "dc1"})
			require.NoError(t, err)
			defer c.Close()
			read := func() {
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "k", Level: consistency.All})
				require.NoError(t, err)
			}
			read()
			require.NoError(t, tc.loc.ReplaceNode("z", ring.Node{ID: "z", Datacenter: "dc1", Rack: "r9"}))
			if forget {
				c.ForgetReplica("z")
			}
			read()
			var eps []replica.Endpoint
			for _, r := range c.Metrics().Replicas {
				eps = append(eps, r.Endpoint)
			}
			assert.Contains(t, eps, replica.Endpoint{ID: "z", Datacenter: "dc1", Rack: "r9"}, "ForgetReplica: %v", forget)
			assert.Len(t, eps, 3, "ForgetReplica: %v", forget)
		})
	}
}
