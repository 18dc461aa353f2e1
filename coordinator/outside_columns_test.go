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

// losesColumns answers every read with every column, as a transport that
// lost the command's column selection would.
type losesColumns struct{ replica.Replica }

func (r losesColumns) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	cmd.Columns = nil
	return r.Replica.Read(ctx, cmd)
}

// A data answer holding a column the read did not select is its replica's
// failure, as a row outside the query is: trusted, it handed the client a
// column it never asked for (one it may not be meant to see), and BLOCKING
// repair wrote it on as a difference. The columns may come in any order.
func TestAnswerWithAnUnselectedColumnIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		p := replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10), replica.Live("b", "secret", 10), replica.Live("c", "3", 10)))
		p.Static = replica.NewRow("", replica.Live("s", "static", 10))
		require.NoError(t, e.cluster.Seed(tbl, p))
		c, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return losesColumns{r} }),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()

		for _, level := range []consistency.Level{consistency.One, consistency.Quorum} { // QUORUM checks as it digests
			_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, NowInSec: now, Columns: []string{"c", "a"}})
			var failure *consistency.ReadFailureError
			require.ErrorAs(t, err, &failure, level)
			assert.ErrorIs(t, failure.Reasons[A], coordinator.ErrOutsideQuery, level)
			assert.ErrorContains(t, failure.Reasons[A], `static column "s"`, level)
		}

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum, NowInSec: now,
			Columns: []string{"s", "c", "b", "a"}})
		require.NoError(t, err, "every column selected: A's answer is what it was asked")
		assert.Len(t, res.Partition.Rows[0].Cells, 3)
		res, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum, NowInSec: now})
		require.NoError(t, err)
		assert.Equal(t, "static", string(res.Partition.Static.Cells[0].Value))
	})
}
