package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A replica that missed after a read planned is not that read's hedge
// target over one that did not: every replica on one rack, so none is on a
// rack without a request out, the hedge went to the first in the plan's
// order, B, which had failed a concurrent read since, though C had not;
// it failed again, and the read waited the slow A's 50 ms (found by
// review).
func TestHedgeSkipsAReplicaThatMissedSincePlanning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const (
			n1 = "dc1-r1-n1"
			n2 = "dc1-r1-n2"
			n3 = "dc1-r1-n3"
		)
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 1, Nodes: 3}},
			Replication: consistency.Simple(3), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		require.NoError(t, cl.Pin(tbl, key, n1, n2, n3))
		require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "10ms"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		_, _, err = e.read(consistency.All) // every replica scored at 1 ms
		require.NoError(t, err)
		settle()

		e.behave(t, n1, constant(ms(50)))
		var (
			res  coordinator.Result
			took time.Duration
			done = make(chan struct{})
		)
		go func() {
			defer close(done)
			res, took, err = e.read(consistency.One) // plans n1, n2, n3
		}()
		synctest.Wait()
		require.NoError(t, e.replica(n2).SetFault(replicatest.ErrorAfter(ms(1), nil)))
		_, ferr := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.Error(t, ferr, "n2 fails a read: it missed")
		<-done
		require.NoError(t, err)
		require.Equal(t, n1, firstContact(t, res))
		require.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, n3, res.Trace.Hedge.To, "not the replica that failed since the read planned\n%s", res.Trace)
		assert.Less(t, took, ms(50), "a hedge to n3 answers at 11 ms")
		settle()
	})
}
