package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

var errDataRead = errors.New("data read refused")

// failsData answers digest reads and fails data reads.
type failsData struct{ replica.Replica }

func (f failsData) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if !cmd.DigestOnly {
		return replica.Response{}, errDataRead
	}
	return f.Replica.Read(ctx, cmd)
}

// failingDataRound is a coordinator over five nodes (fiveNodes, the snitch
// off) where failing fails its data reads: A's in the first round, or, B
// then holding another version than A, B's in the reconcile round.
func failingDataRound(t *testing.T, failing string, timeout time.Duration, spec string) *coordinator.Coordinator {
	cl := fiveNodes(t)
	if failing == B { // a mismatch between A (v1) and B (v2), so that B is asked for data
		require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), B, C, D, E))
	}
	loc := wrapIDs(cl, map[string]bool{failing: true}, func(r replica.Replica) replica.Replica { return failsData{r} })
	co, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl, ReadTimeout: timeout,
		DefaultTable: policy(t, spec), Snitch: coordinator.SnitchConfig{Disabled: true}})
	require.NoError(t, err)
	return co
}

// A failure names the failures of the round that failed, as many as it
// counts (Cassandra's RequestFailureException counts the reasons of its
// own ReadCallback): A, down, was hedged around in the first round and is
// no reason why the reconcile round failed. A is down, C is newer than B;
// the first round hedges to C at once, B's digest mismatches C's data,
// and B's data read, the reconcile round's only request, fails with no
// uncontacted replica left.
func TestAFailureReportsOnlyItsRoundsReasons(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), C))
		require.NoError(t, e.replica(A).SetFault(replicatest.Down()))
		locate := wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica {
			if r.Endpoint().ID == B {
				return failsData{r}
			}
			return r
		})
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster, DefaultTable: policy(t, "10ms")})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		require.True(t, res.Trace.DigestMismatch)
		assert.Equal(t, 1, failure.Failures)
		assert.Equal(t, 1, failure.Received, "C's version")
		require.Len(t, failure.Reasons, failure.Failures)
		assert.ErrorIs(t, failure.Reasons[B], errDataRead)
		assert.NotErrorIs(t, err, replicatest.ErrDown, "A's failure was the first round's")
	})
}

// RepairsTimedOut counts the repairs of a BLOCKING read that timed out;
// a read its caller cancelled did not time out (it counts in Cancelled).
func TestACancelledBlockingRepairIsNotCountedAsTimedOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		never, _ := latency.ParseSpeculativeRetry("NEVER")
		require.NoError(t, e.c.SetTableOptions(tbl, coordinator.TableOptions{ReadRepair: repair.Blocking, AdditionalWritePolicy: never}))
		// B answers reads but hangs on the repair write.
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(10_000)}}})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(100), cancel)

		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.ErrorIs(t, err, context.Canceled)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.Cancelled)
		assert.Zero(t, m.Timeouts)
		assert.Zero(t, m.RepairsTimedOut, "no read timed out")
		assert.Equal(t, int64(1), m.RepairsSent)
	})
}
