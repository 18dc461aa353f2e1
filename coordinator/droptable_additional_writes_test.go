package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// droppingApply is a replica whose Apply calls drop before it writes: the
// table is dropped while a BLOCKING read's repair round is under way.
type droppingApply struct {
	replica.Replica
	drop func()
}

func (d droppingApply) Apply(ctx context.Context, m replica.Mutation) error {
	d.drop()
	return d.Replica.Apply(ctx, m)
}

// DROP TABLE while a BLOCKING read's repair write stalls: the read sends
// no additional write, as it sends no repair, once its table is dropped
// (a table made again under the name must not receive the old one's
// data); it went to C at the additional-write threshold, after the drop.
func TestADroppedTablesBlockingRepairSendsNoAdditionalWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		require.NoError(t, cl.SeedOn(tbl, row(key, "val1", 20), A))
		require.NoError(t, cl.SeedOn(tbl, row(key, "val2", 20), B, C))
		p, err := latency.ParseSpeculativeRetry("5ms")
		require.NoError(t, err)
		var c *coordinator.Coordinator
		e := newEnvOn(t, cl, coordinator.Config{
			Locator: wrapID(cl, A, func(r replica.Replica) replica.Replica {
				return droppingApply{r, func() { c.DropTable(tbl) }}
			}),
			DefaultTable: coordinator.TableOptions{AdditionalWritePolicy: p},
		})
		c = e.c
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var timeout *consistency.ReadTimeoutError
		assert.ErrorAs(t, err, &timeout, "A's write stalls, with nothing to stand in for it")
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		synctest.Wait()
		assert.Zero(t, e.stats(C).Mutations, "an additional write went to the dropped table")
		m := c.Metrics().Total
		assert.Zero(t, m.AdditionalWrites)
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsDropped, "A's write, queued at the timeout and dropped at its turn")
	})
}
