package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// errContinuation answers a read of the whole partition and refuses a
// short-read continuation (a query after a row) with an error.
type errContinuation struct{ replica.Replica }

var errRefused = errors.New("continuation refused")

func (f errContinuation) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if len(cmd.Query.Slices) == 0 {
		return f.Replica.Read(ctx, cmd)
	}
	return replica.Response{}, errRefused
}

// In an IN query at QUORUM with C down, B deleted key k, which A missed:
// A's LIMIT 1 answer is dead in the merge and A is asked for what follows
// it. A continuation refused fails k alone with a ReadFailureError of
// QUORUM's numbers (blockFor 2; B's version complete, A's not: 1 received,
// 1 failure, A the reason); one that hangs times k out (2, 1 received).
// The other key, on which the replicas agree, reads its row either way.
func TestAShortReadContinuationFailsOneKeyOfAnINQuery(t *testing.T) {
	for _, hangs := range []bool{false, true} {
		t.Run(map[bool]string{false: "refused", true: "hangs"}[hangs], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pa := seeded(t, []string{"1", "2"})
				e := srpEnv(t, coordinator.TableOptions{}, pa, pa.WithDeletion(replica.DeletedAt(20, now-100)), pa)
				require.NoError(t, e.cluster.Pin(tbl, "k2", A, B, C))
				require.NoError(t, e.cluster.Seed(tbl, pk("k2", ins("1", 10))))
				require.NoError(t, e.cluster.SetAlive(C, false))
				wrap := func(r replica.Replica) replica.Replica { return errContinuation{r} }
				if hangs {
					wrap = func(r replica.Replica) replica.Replica { return continuationFault{r, false} }
				}
				c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, LocalDatacenter: "dc1",
					DefaultTable: policy(t, "NEVER"), Locator: wrapping(e.cluster, 1, wrap)})
				require.NoError(t, err)
				defer c.Close()

				res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key, "k2"},
					Level: consistency.Quorum, Query: replica.Query{Limit: 1}, NowInSec: now})
				require.NoError(t, err)
				require.Len(t, res, 2)
				if hangs {
					var timeout *consistency.ReadTimeoutError
					require.True(t, errors.As(res[0].Err, &timeout), "%v", res[0].Err)
					assert.Equal(t, consistency.Quorum, timeout.Level)
					assert.Equal(t, 2, timeout.BlockFor)
					assert.Equal(t, 1, timeout.Received)
					assert.True(t, timeout.DataPresent)
				} else {
					var failure *consistency.ReadFailureError
					require.True(t, errors.As(res[0].Err, &failure), "%v", res[0].Err)
					assert.Equal(t, consistency.ReadFailureError{Level: consistency.Quorum, BlockFor: 2, Received: 1, Failures: 1,
						DataPresent: true, Reasons: failure.Reasons}, *failure)
					assert.ErrorIs(t, failure.Reasons[A], errRefused)
				}
				last := res[0].Result.Trace.Requests[len(res[0].Result.Trace.Requests)-1]
				assert.Equal(t, coordinator.PhaseShortRead, last.Phase, res[0].Result.Trace.String())
				require.NoError(t, res[1].Err)
				assert.Equal(t, []string{"1"}, clusterings(res[1].Result))
			})
		})
	}
}
