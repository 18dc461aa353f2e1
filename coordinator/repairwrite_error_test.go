package coordinator_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

var errApply = errors.New("engine: sstable corrupted")

// failsApply answers reads and fails every write.
type failsApply struct{ replica.Replica }

func (failsApply) Apply(context.Context, replica.Mutation) error { return errApply }

// repairFailingCoordinator is newStaleEnv's cluster (B stale: A and C hold
// v2, B only v1) under a BLOCKING-repair coordinator whose replicas in
// failing answer reads but fail writes.
func repairFailingCoordinator(t *testing.T, failing ...string) *coordinator.Coordinator {
	t.Helper()
	e, _ := newStaleEnv(t, repair.Blocking)
	locate := wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica {
		if slices.Contains(failing, r.Endpoint().ID) {
			return failsApply{r}
		}
		return r
	})
	c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// A read that fails because a BLOCKING repair's write failed says so: the
// reason is a *RepairWriteError wrapping the replica's error, not the bare
// error a failed read of that replica would leave. The counts are the
// repair round's: A and C already held the merged result, B's write
// failed, and ALL needs all three. The trace comes back with the error.
func TestAFailedRepairWriteIsNamedAsOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := repairFailingCoordinator(t, B)

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, 3, failure.BlockFor)
		assert.Equal(t, 2, failure.Received, "A and C were up to date")
		assert.Equal(t, 1, failure.Failures)
		assert.True(t, failure.DataPresent)
		var rw *coordinator.RepairWriteError
		require.ErrorAs(t, failure.Reasons[B], &rw)
		assert.Equal(t, B, rw.Endpoint.ID)
		assert.ErrorIs(t, err, errApply, "the replica's error is still there")
		assert.EqualError(t, err, "Operation failed - received 2 responses and 1 failures (ALL, 3 required): "+
			B+": coordinator: read repair write to "+B+": engine: sstable corrupted")

		assert.True(t, res.Trace.DigestMismatch)
		assert.Equal(t, []string{B}, res.Trace.Repaired)
		write := res.Trace.Requests[len(res.Trace.Requests)-1]
		assert.Equal(t, coordinator.RequestTrace{Endpoint: B, Kind: coordinator.KindRepair, Phase: coordinator.PhaseRepair,
			Outcome: coordinator.Failed, Err: errApply},
			coordinator.RequestTrace{Endpoint: write.Endpoint, Kind: write.Kind, Phase: write.Phase, Outcome: write.Outcome, Err: write.Err})
		assert.Equal(t, coordinator.NoCandidate, res.Trace.AdditionalWrite.Suppressed, "every replica was contacted")
		assert.Equal(t, int64(1), c.Metrics().Total.RepairsFailed)
	})
}

// The repair round's additional writes are repair writes too: at QUORUM,
// B's repair fails, the merge goes at once to C, which the read had not
// contacted, and C's write fails as well.
func TestAFailedAdditionalWriteIsNamedAsARepairWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := repairFailingCoordinator(t, B, C)

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		require.True(t, res.Trace.AdditionalWrite.Fired)
		assert.Equal(t, 2, failure.BlockFor)
		assert.Equal(t, 1, failure.Received, "A was up to date")
		assert.Equal(t, 2, failure.Failures)
		for _, id := range []string{B, C} {
			var rw *coordinator.RepairWriteError
			require.ErrorAs(t, failure.Reasons[id], &rw, id)
			assert.Equal(t, id, rw.Endpoint.ID)
			assert.ErrorIs(t, rw, errApply)
		}
	})
}

// A failed read leaves the replica's own error, which is no repair write's.
func TestAFailedReadIsNoRepairWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		locate := wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica { return failsData{r} })
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster, DefaultTable: policy(t, "NEVER")})
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.ErrorIs(t, err, errDataRead)
		var rw *coordinator.RepairWriteError
		assert.False(t, errors.As(err, &rw))
	})
}
