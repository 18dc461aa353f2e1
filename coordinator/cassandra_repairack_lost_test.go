package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// ackLost applies a repair write and then never acknowledges it: it
// returns only when the write's context ends.
type ackLost struct{ replica.Replica }

func (w ackLost) Apply(ctx context.Context, m replica.Mutation) error {
	if err := w.Replica.Apply(ctx, m); err != nil {
		return err
	}
	<-ctx.Done()
	return ctx.Err()
}

// Port of Cassandra's readRepairTimeoutTest (apache/cassandra,
// test/distributed/org/apache/cassandra/distributed/test/ReadRepairTest.java):
// A and B hold (1, 1, 1), C nothing; the acknowledgements of C's repair
// writes are lost. A BLOCKING read at ALL fails with a ReadTimeoutError at
// the read timeout, the data present, C's acknowledgement missing (2 of 3),
// and C holds the row all the same: the write was applied.
func TestCassandraReadRepairAckLostTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica {
				if r.Endpoint().ID == C {
					return ackLost{r}
				}
				return r
			})})
		p := replica.NewPartition(key, replica.NewRow("1", replica.Live("v", "1", 10)).WithLiveness(replica.Inserted(10)))
		require.NoError(t, cl.SeedOn(tbl, p, A, B))
		require.NoError(t, cl.SeedOn(tbl, replica.NewPartition(key), C))

		_, took, err := e.read(consistency.All)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, consistency.All, timeout.Level)
		assert.Equal(t, 3, timeout.BlockFor)
		assert.Equal(t, 2, timeout.Received)
		assert.True(t, timeout.DataPresent)
		assert.Equal(t, ms(5000), took)
		assert.True(t, e.stored(t, C, key).Equal(p), "C applied its repair: %v", e.stored(t, C, key))
		assert.Equal(t, int64(1), e.c.Metrics().Total.RepairsTimedOut)
	})
}
