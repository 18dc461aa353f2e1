package coordinator_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// Every round takes at most one speculative action, however many of its
// requests fail, and each is drawn from the budget. Five replicas at
// QUORUM: the three contacts fail, and so does the one hedge; with the
// rule broken the read would hedge to E too (or spin). This runs on the
// real clock under a watchdog, so that a broken rule fails in seconds with
// a message instead of hanging the package.
func TestEachRoundSpeculatesAtMostOnce(t *testing.T) {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
		Replication: consistency.Simple(5),
		Options:     []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{Fault: replicatest.ErrorAfter(0, nil)})},
	})
	require.NoError(t, err)
	ids := []string{A, B, C, "dc1-r4-n4", "dc1-r5-n5"}
	require.NoError(t, cl.Pin(tbl, key, ids...))
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: time.Minute,
		DefaultTable: coordinator.TableOptions{SpeculativeRetry: policy(t, "1ms").SpeculativeRetry, ReadRepair: repair.Blocking}})
	require.NoError(t, err)
	defer c.Close()

	type outcome struct {
		res coordinator.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		done <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the read did not end: a round is speculating without end")
	}
	var failure *consistency.ReadFailureError
	require.ErrorAs(t, o.err, &failure)
	for _, ph := range []coordinator.Phase{coordinator.PhaseSpeculative, coordinator.PhaseReconcile} {
		assert.LessOrEqual(t, countPhase(o.res.Trace, ph), 1, "more than one speculative request in phase %v:\n%v", ph, o.res.Trace)
	}
	m := c.Metrics().Total
	assert.Equal(t, int64(1), m.SpeculativeRetries, "the one hedge, drawn from the budget")
}

func countPhase(tr coordinator.Trace, ph coordinator.Phase) int {
	n := 0
	for _, rt := range tr.Requests {
		if rt.Phase == ph && (rt.Speculative || ph == coordinator.PhaseSpeculative) {
			n++
		}
	}
	return n
}
