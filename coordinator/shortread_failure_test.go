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

// continuationFault answers a read of the whole partition and fails a
// short-read continuation (a query after a row): it hangs, or panics.
type continuationFault struct {
	replica.Replica
	panics bool
}

func (f continuationFault) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if len(cmd.Query.Slices) == 0 {
		return f.Replica.Read(ctx, cmd)
	}
	if f.panics {
		panic("continuation")
	}
	<-ctx.Done()
	return replica.Response{}, ctx.Err()
}

// A short-read round that fails or times out reports the versions that
// are complete: those not asked for more, and the continuations that came
// in, as the reconcile round reports the versions in hand. At ALL with
// LIMIT 1, B deleted the partition, which A and C missed: both are asked
// for what follows their row, and A's continuation hangs, while C's
// answers: B's and C's versions are complete, 2 of 3. Had A's panicked,
// the read fails at once, before C's continuation is in: B's, 1 of 3.
func TestAShortReadRoundReportsTheCompleteVersions(t *testing.T) {
	for _, panics := range []bool{false, true} {
		t.Run(map[bool]string{false: "hangs", true: "panics"}[panics], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := seeded(t, []string{"1", "2"})
				e := srpEnv(t, coordinator.TableOptions{}, p, p.WithDeletion(replica.DeletedAt(20, now-100)), p)
				c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, LocalDatacenter: "dc1",
					DefaultTable: policy(t, "NEVER"),
					Locator:      wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return continuationFault{r, panics} })})
				require.NoError(t, err)
				defer c.Close()

				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
					Query: replica.Query{Limit: 1}, NowInSec: now})
				var timeout *consistency.ReadTimeoutError
				var failure *consistency.ReadFailureError
				if panics {
					require.True(t, errors.As(err, &failure), "%v", err)
					assert.Equal(t, consistency.ReadFailureError{Level: consistency.All, BlockFor: 3, Received: 1, Failures: 1,
						DataPresent: true, Reasons: failure.Reasons}, *failure)
					assert.Contains(t, failure.Reasons, A)
				} else {
					require.True(t, errors.As(err, &timeout), "%v", err)
					assert.Equal(t, 3, timeout.BlockFor)
					assert.Equal(t, 2, timeout.Received)
					assert.True(t, timeout.DataPresent)
				}
				last := res.Trace.Requests[len(res.Trace.Requests)-1]
				assert.Equal(t, coordinator.PhaseShortRead, last.Phase, res.Trace.String())
			})
		})
	}
}
