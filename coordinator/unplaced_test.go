package coordinator_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A read the Locator cannot place leaves no state for its table: reads of
// unknown names (a typo, a hostile client) would otherwise each keep a
// table's trackers and counters for good. They count in the total alone.
func TestAReadTheLocatorRefusesLeavesNoTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := knownTablesCluster(t, tbl)
		e := newEnvOn(t, cl, coordinator.Config{})
		for i := range 100 {
			_, err := e.c.Read(context.Background(), coordinator.Request{Table: "nosuch" + strconv.Itoa(i), Key: key, Level: consistency.Quorum})
			require.ErrorIs(t, err, replicatest.ErrUnknownTable)
		}
		e.readTable(t, tbl)

		m := e.c.Metrics()
		assert.Equal(t, []string{tbl}, tableNames(m))
		_, ok := e.c.TableMetrics("nosuch0")
		assert.False(t, ok)
		assert.Equal(t, int64(101), m.Total.Reads)
		assert.Equal(t, int64(101), m.Total.ReadsByLevel[consistency.Quorum])
		assert.Equal(t, int64(100), m.Total.OtherErrors)
		assert.Equal(t, int64(1), m.Tables[0].Reads)
		assert.Zero(t, m.Tables[0].OtherErrors)
	})
}

// An answer the coordinator refuses (ErrBadPlacement) places nothing
// either: no table state.
func TestABadPlacementLeavesNoTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(
			func(string, string) ([]replica.Replica, consistency.Replication, error) {
				return nil, consistency.Simple(3), nil
			})})
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		require.ErrorIs(t, err, coordinator.ErrBadPlacement)
		m := c.Metrics()
		assert.Empty(t, m.Tables)
		assert.Equal(t, int64(1), m.Total.OtherErrors)
	})
}

// A table the Locator refused and later places (created meanwhile) gets
// its state from its first placed read: concurrent first reads share it,
// and the refused read stays in the total alone.
func TestATableGetsItsStateFromItsFirstPlacedRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := instantCluster(t)
		var created atomic.Bool
		c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(
			func(table, k string) ([]replica.Replica, consistency.Replication, error) {
				if !created.Load() {
					return nil, consistency.Replication{}, replicatest.ErrUnknownTable
				}
				return cl.Locate(table, k)
			})})
		require.NoError(t, err)
		defer c.Close()
		read := func() error {
			_, err := c.Read(context.Background(), coordinator.Request{Table: "daily", Key: key, Level: consistency.Quorum})
			return err
		}
		require.ErrorIs(t, read(), replicatest.ErrUnknownTable)
		assert.Empty(t, c.Metrics().Tables)

		created.Store(true)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { assert.NoError(t, read()) })
		}
		wg.Wait()
		m := c.Metrics()
		require.Equal(t, []string{"daily"}, tableNames(m))
		assert.Equal(t, int64(8), m.Tables[0].Reads, "one state for all first reads")
		assert.Zero(t, m.Tables[0].OtherErrors)
		assert.Equal(t, int64(9), m.Total.Reads)
		assert.Equal(t, int64(1), m.Total.OtherErrors)
	})
}

// knownTablesCluster is instantCluster knowing only the tables given:
// its Locate refuses any other with ErrUnknownTable.
func knownTablesCluster(t *testing.T, tables ...string) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3), Tables: tables,
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}
