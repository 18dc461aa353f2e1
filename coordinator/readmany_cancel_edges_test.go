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
	"github.com/readpath/readpath/replica"
)

// slowApply delays every repair write by 50 ms, or until its context ends.
type slowApply struct{ replica.Replica }

func (r slowApply) Apply(ctx context.Context, m replica.Mutation) error {
	select {
	case <-time.After(ms(50)):
	case <-ctx.Done():
		return ctx.Err()
	}
	return r.Replica.Apply(ctx, m)
}

// A key after a full page (a, answering in 20 ms, fills it with the first
// of its two rows), cancelled while its BLOCKING repair is being written,
// is left out of the page, and its repairs end: every repair
// sent is counted acknowledged, failed, dropped or abandoned; the read is
// counted cancelled, not as a timeout or failure; and nothing is left
// running.
func TestReadManyCancelledRepairAfterTheCutIsAccounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, k := range []string{"a", "x"} {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		}
		seedRows(t, e, 2, "a", "x")
		require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition("x", ins("1", 20)), A))
		c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
			Locator: coordinator.LocatorFunc(func(table, key string) ([]replica.Replica, consistency.Replication, error) {
				reps, rf, err := e.cluster.Locate(table, key)
				out := make([]replica.Replica, len(reps))
				for i, r := range reps {
					out[i] = slowApply{r}
					if key == "a" {
						out[i] = lateReplica{Replica: slowApply{r}, delay: ms(20)}
					}
				}
				return out, rf, err
			})})
		require.NoError(t, err)
		defer c.Close()

		// No per-partition limit: before a key is read, nothing tells how
		// many rows one holds, and the page starts both.
		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "x"},
			Level: consistency.All, PageSize: 1, Concurrency: 2, NowInSec: now})
		require.NoError(t, err)
		require.Equal(t, []string{"a"}, keysOf(res))
		assert.Equal(t, []string{"a/1"}, manyRows(t, res))
		assert.True(t, res[0].Cut, "a has a row left")
		settle()
		assert.Equal(t, int64(2), c.Metrics().Total.RepairsSent, "x's repairs to B and C")
		time.Sleep(time.Second) // the cancelled writes, queued as ASYNC repairs, end
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.DigestMismatches, "x was reconciled before a answered")
		assert.Equal(t, int64(2), m.RepairsSent)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned)
		assert.Zero(t, m.RepairsTimedOut, "cancelled, not timed out")
		assert.Equal(t, int64(1), m.Cancelled)
		assert.Zero(t, m.Timeouts+m.Failures)
		for _, id := range []string{B, C} {
			assert.True(t, e.stored(t, id, "x").Equal(replica.NewPartition("x", ins("1", 20), ins("2", 1))), id)
		}
	})
}
