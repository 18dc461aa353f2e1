package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// newStaleEnv makes B stale: A and C hold v2 written at 20, B only v1.
// A QUORUM read asks A for data and B for a digest, so they disagree.
func newStaleEnv(t *testing.T, mode repair.Mode) (*env, *[]coordinator.RepairEvent) {
	t.Helper()
	var events []coordinator.RepairEvent
	obs := coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) { events = append(events, e) }}
	e := newEnv(t, coordinator.Config{
		DefaultTable: coordinator.TableOptions{ReadRepair: mode},
		Observer:     obs,
	})
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
	return e, &events
}

func partitionOf(t *testing.T, e *env, id string) string {
	t.Helper()
	p, ok := e.replica(id).Partition(tbl, key)
	require.True(t, ok)
	return string(p.Rows[0].Cells[0].Value)
}

// BLOCKING: digest mismatch, full data reads, the newest version returned,
// and the read returns only once B acknowledged its repair.
func TestStaleReplicaBlockingRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, events := newStaleEnv(t, repair.Blocking)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, ms(3), took, "digests at 1 ms, B's data at 2 ms, B's ack at 3 ms")
		assert.True(t, res.Trace.DigestMismatch)
		assert.Equal(t, []string{B}, res.Trace.Repaired)
		assert.Equal(t, "v2", partitionOf(t, e, B), "repaired before the read returned")
		var reconcile []coordinator.RequestTrace
		for _, rt := range res.Trace.Requests {
			if rt.Phase == coordinator.PhaseReconcile {
				reconcile = append(reconcile, rt)
			}
		}
		require.Len(t, reconcile, 1)
		assert.Equal(t, B, reconcile[0].Endpoint)
		assert.True(t, reconcile[0].Used, "B's version went into the merge")
		require.Len(t, *events, 1)
		assert.Equal(t, B, (*events)[0].To.ID)
		assert.NoError(t, (*events)[0].Err)
		assert.Equal(t, int64(1), e.stats(B).Mutations)
		assert.Zero(t, e.stats(A).Mutations+e.stats(C).Mutations)
		assert.Equal(t, int64(2), e.stats(B).Reads, "a digest read, then a data read")

		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.DigestMismatches)
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsAcked)
	})
}

// NONE merges and returns the newest version but writes nothing.
func TestStaleReplicaNoRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, events := newStaleEnv(t, repair.None)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, ms(2), took)
		settle()
		assert.Zero(t, e.cluster.Stats().Mutations)
		assert.Equal(t, "v1", partitionOf(t, e, B))
		assert.Empty(t, *events)
	})
}

// ASYNC returns the newest version first; the repair lands afterwards.
func TestStaleReplicaAsyncRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, events := newStaleEnv(t, repair.Async)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, ms(2), took, "the read does not wait for the repair")
		assert.Equal(t, "v1", partitionOf(t, e, B), "not yet repaired when the read returns")

		synctest.Wait()
		time.Sleep(ms(1))
		synctest.Wait()
		assert.Equal(t, "v2", partitionOf(t, e, B))
		require.Len(t, *events, 1)
		assert.Equal(t, repair.Async, (*events)[0].Mode)
		assert.Equal(t, int64(1), e.c.Metrics().Total.RepairsAcked)
	})
}

// A BLOCKING repair that is not acknowledged in time, with additional
// writes off, fails the read with a timeout that says the data was there.
func TestBlockingRepairTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		never, _ := latency.ParseSpeculativeRetry("NEVER")
		e.c.SetTableOptions(tbl, coordinator.TableOptions{ReadRepair: repair.Blocking, AdditionalWritePolicy: never})
		// B answers reads but hangs on the repair write: pause it from 2 ms.
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(10_000)}}})

		_, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.True(t, timeout.DataPresent)
		assert.Equal(t, 1, timeout.Received, "A was up to date; B never acknowledged")
		assert.Equal(t, 2, timeout.BlockFor)
		assert.Equal(t, ms(5000), took)
		assert.Equal(t, int64(1), e.c.Metrics().Total.RepairsTimedOut)
	})
}
