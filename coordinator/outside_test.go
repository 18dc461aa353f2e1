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

// addsRow answers every data read with a row no query here selects, as a
// transport that lost the query's slices would.
type addsRow struct{ replica.Replica }

func (r addsRow) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if err == nil && !cmd.DigestOnly {
		resp.Partition.Rows = append(resp.Partition.Rows, replica.NewRow("z", replica.Live("v", "x", 7)))
	}
	return resp, err
}

// A data answer with a row outside the query's slices is its replica's
// failure: the client never sees the row, and no repair spreads it; the
// read hedges around it as around any failure.
func TestAnswerOutsideTheQueryIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, []string{"0", "1", "2"}), seeded(t, []string{"0", "1", "2"}), seeded(t, []string{"0", "1", "2"}))
		c, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return addsRow{r} }),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.One, NowInSec: now,
			Query: replica.Query{Slices: []replica.Slice{{Start: replica.StartAfter("0"), End: replica.EndAt("2")}}}}

		_, err = c.Read(context.Background(), req)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.ErrorIs(t, failure.Reasons[A], coordinator.ErrOutsideQuery)
		req.Level = consistency.Quorum // the data answer is digested as it is checked
		_, err = c.Read(context.Background(), req)
		require.ErrorAs(t, err, &failure)
		assert.ErrorIs(t, failure.Reasons[A], coordinator.ErrOutsideQuery)

		req.Query = replica.Query{} // every row: "z" is one of them
		res, err := c.Read(context.Background(), req)
		require.NoError(t, err)
		assert.Len(t, res.Partition.Rows, 4)
	})
}

// restartsQuery answers every data read from the partition's first row,
// whatever rows the query asked for: a short-read request gets the rows
// it was answered before.
type restartsQuery struct{ replica.Replica }

func (r restartsQuery) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	cmd.Query = replica.Query{Limit: cmd.Query.Limit}
	return r.Replica.Read(ctx, cmd)
}

// A replica that answers a short-read request with rows outside its query
// fails that read at once, naming it: asked again for the rows after its
// last, it would answer the same ones until the read timed out (5 s).
func TestShortReadAnswerOutsideTheQueryFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"0", "1", "2", "3", "4", "5"}
		deleted := []replica.Row{del("0", 20), del("1", 20), del("2", 20)}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all, deleted...), seeded(t, all, deleted...))
		c, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return restartsQuery{r} }),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER")})
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
			Query: replica.Query{Limit: 2}, NowInSec: now})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.ErrorIs(t, failure.Reasons[A], coordinator.ErrOutsideQuery)
		assert.Equal(t, int64(1), c.Metrics().Total.ShortReadRequests)
	})
}
