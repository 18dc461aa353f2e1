package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// topoCluster is a ring.Locator over three nodes x, y, z (RF 3) whose
// Connect hands out replicatest replicas answering in 1 ms.
type topoCluster struct {
	loc  *ring.Locator
	reps map[string]*replicatest.Replica
}

func newTopoCluster(t *testing.T) *topoCluster {
	t.Helper()
	tc := &topoCluster{reps: map[string]*replicatest.Replica{}}
	nodes := []ring.Node{
		{ID: "x", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-1 << 62}},
		{ID: "y", Datacenter: "dc1", Rack: "r2", Tokens: []int64{0}},
		{ID: "z", Datacenter: "dc1", Rack: "r3", Tokens: []int64{1 << 62}},
	}
	loc, err := ring.NewLocator(ring.LocatorConfig{
		Nodes:  nodes,
		Tables: map[string]consistency.Replication{tbl: consistency.Simple(3)},
		Connect: func(n ring.Node) (replica.Replica, error) {
			r := replicatest.NewReplica(n.Endpoint(), replicatest.WithBehavior(constant(ms(1))))
			tc.reps[n.ID] = r
			return r, nil
		},
	})
	require.NoError(t, err)
	tc.loc = loc
	return tc
}

// queuedRepairForX sets up a coordinator (ASYNC read repair, one repair
// worker, det as its liveness and outcome reporter) whose repair of x for
// key2 waits in the queue, behind y's repair of key1, which is being
// written for 50 ms, when it returns.
func queuedRepairForX(t *testing.T, tc *topoCluster, det *ring.Detector) *coordinator.Coordinator {
	t.Helper()
	// key1: y is stale; key2: x is stale.
	for id, ts := range map[string]int64{"x": 20, "y": 10, "z": 20} {
		require.NoError(t, tc.reps[id].Seed(tbl, row("key1", "v", ts)))
	}
	for id, ts := range map[string]int64{"x": 10, "y": 20, "z": 20} {
		require.NoError(t, tc.reps[id].Seed(tbl, row("key2", "v", ts)))
	}
	c, err := coordinator.New(coordinator.Config{
		Locator: tc.loc, Liveness: det, LocalDatacenter: "dc1", RepairWorkers: 1,
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
	})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	read := func(k string) {
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.All})
		require.NoError(t, err)
	}
	// The one repair worker is busy writing y's repair for 50 ms ...
	require.NoError(t, tc.reps["y"].SetBehavior(constant(ms(50))))
	read("key1")
	synctest.Wait()
	require.Equal(t, int64(1), tc.reps["y"].Stats().InFlight, "y's repair is being written")
	require.NoError(t, tc.reps["y"].SetBehavior(constant(ms(1))))
	// ... so x's repair waits in the queue when its read returns.
	read("key2")
	require.Zero(t, tc.reps["x"].Stats().Mutations)
	return c
}

func newDetector(t *testing.T) *ring.Detector {
	t.Helper()
	det, err := ring.NewDetector(ring.DetectorConfig{Seed: 1})
	require.NoError(t, err)
	t.Cleanup(func() { det.Close() })
	return det
}

// An ASYNC repair still queued for a node when the README's removal steps
// complete (RemoveNode; the reads in flight done; Detector.Forget and
// ForgetReplica) must not be sent to that node afterwards.
func TestQueuedAsyncRepairNotSentToARemovedNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tc := newTopoCluster(t)
		det := newDetector(t)
		c := queuedRepairForX(t, tc, det)

		// The README's steps: remove x; its reads in flight are done; forget it.
		require.NoError(t, tc.loc.RemoveNode("x"))
		synctest.Wait()
		det.Forget("x")
		c.ForgetReplica("x")

		time.Sleep(time.Second)
		synctest.Wait()
		assert.Zero(t, tc.reps["x"].Stats().Mutations, "a repair went to x after it was removed and forgotten")
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsDropped)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned)
		assert.Empty(t, det.Down())
		for _, r := range c.Metrics().Replicas {
			assert.NotEqual(t, "x", r.Endpoint.ID, "x's snitch score came back")
		}
	})
}

// "A convicted replica is never planned, hedged to or repaired": an ASYNC
// repair queued for a replica that the detector convicts before the
// repair's turn comes is not sent to it.
func TestQueuedAsyncRepairNotSentToAConvictedReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tc := newTopoCluster(t)
		det := newDetector(t)
		c := queuedRepairForX(t, tc, det)

		det.ReportOutcome(replica.Outcome{Replica: tc.reps["x"], Err: replica.ErrConnectionFailed})
		require.Equal(t, []string{"x"}, det.Down())

		time.Sleep(200 * time.Millisecond) // y's repair is done; x is probed back only at 1 s
		synctest.Wait()
		require.Equal(t, []string{"x"}, det.Down())
		assert.Zero(t, tc.reps["x"].Stats().Mutations, "a repair went to a convicted replica")
		m := c.Metrics().Total
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned)
	})
}

// Reads and ReadManys run while nodes join, leave and are replaced and a
// table's replication changes: each read succeeds or fails with a typed
// error, never panics or hangs. Run with -race.
func TestReadsDuringTopologyChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tc := newTopoCluster(t)
		det := newDetector(t)
		c, err := coordinator.New(coordinator.Config{Locator: tc.loc, Liveness: det, LocalDatacenter: "dc1"})
		require.NoError(t, err)
		defer c.Close()
		done := make(chan struct{})
		for g := range 4 {
			go func() {
				defer func() { done <- struct{}{} }()
				for i := range 50 {
					k := fmt.Sprint("k", g, i)
					_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum})
					var u *consistency.UnavailableError
					if err != nil && !errors.As(err, &u) {
						t.Errorf("read %s: %v", k, err)
					}
					res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{k, k + "b"}, Level: consistency.One})
					require.NoError(t, err)
					for _, r := range res {
						if r.Err != nil && !errors.As(r.Err, &u) {
							t.Errorf("read many %s: %v", r.Key, r.Err)
						}
					}
				}
			}()
		}
		for i := range 20 {
			w := ring.Node{ID: fmt.Sprint("w", i), Datacenter: "dc1", Rack: "r1", Tokens: []int64{int64(i+1) << 40}}
			require.NoError(t, tc.loc.AddNode(w))
			time.Sleep(ms(1))
			require.NoError(t, tc.loc.ReplaceNode(w.ID, ring.Node{ID: w.ID, Datacenter: "dc1", Rack: "r2"}))
			require.NoError(t, tc.loc.SetTable(tbl, consistency.Simple(1+i%3)))
			time.Sleep(ms(1))
			require.NoError(t, tc.loc.RemoveNode(w.ID))
		}
		for range 4 {
			<-done
		}
	})
}
