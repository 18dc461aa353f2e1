package coordinator_test

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// downAfterRead is a replica the liveness view reports down as soon as it
// has answered a read.
type downAfterRead struct {
	replica.Replica
	cl *replicatest.Cluster
}

func (d downAfterRead) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := d.Replica.Read(ctx, cmd)
	d.cl.SetAlive(d.Endpoint().ID, false)
	return resp, err
}

// Liveness is asked when a read is planned: a replica reported down after
// it answered its digest still gets the read's reconcile read, and its
// newer version wins, as Liveness' doc says (and Cassandra's plan, fixed
// when made, does). The next read does not ask it.
func TestReplicaReportedDownDuringAReadStillGetsItsReconcileRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), B))
		loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			reps, repl, err := cl.Locate(table, k)
			reps = slices.Clone(reps)
			reps[1] = downAfterRead{reps[1], cl} // B
			return reps, repl, err
		})
		co, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl, Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer co.Close()
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum}
		res, err := co.Read(context.Background(), req)
		require.NoError(t, err)
		synctest.Wait()
		require.False(t, cl.IsAlive(cl.Replica(B).Endpoint()), "B is down after its digest")
		assert.Equal(t, int64(2), cl.Replica(B).Stats().Reads, "its digest, then the reconcile read")
		assert.Equal(t, row(key, "v2", 20).Rows, res.Partition.Rows)

		_, err = co.Read(context.Background(), req)
		require.NoError(t, err)
		assert.Equal(t, int64(2), cl.Replica(B).Stats().Reads, "the next read plans without B")
	})
}
