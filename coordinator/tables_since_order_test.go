package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// The tables of Config.Tables start their counts in name order, each a
// tick after the one before (their Since told apart, as the clock of a
// bubble stands still), so that Metrics replay exactly: made in map order,
// their Since changed from run to run.
func TestConfigTablesStartInNameOrder(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for range 20 {
		synctest.Test(t, func(t *testing.T) {
			tables := map[string]coordinator.TableOptions{}
			for _, n := range names {
				tables[n] = coordinator.TableOptions{}
			}
			cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
				Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 1, Nodes: 3}}, Replication: consistency.Simple(3)})
			require.NoError(t, err)
			c, err := coordinator.New(coordinator.Config{Locator: cl, Tables: tables})
			require.NoError(t, err)
			defer c.Close()
			var last coordinator.TableMetrics
			for i, n := range names {
				m, ok := c.TableMetrics(n)
				require.True(t, ok)
				if i > 0 {
					require.True(t, m.Since.After(last.Since), "%s's Since %v, %s's %v", n, m.Since, names[i-1], last.Since)
				}
				last = m
			}
		})
	}
}
