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

// addsRange answers every data read with a range deletion of rows 4 and 5,
// which no query here selects, as a transport that lost the query's slices
// (or a storage engine that did not clip its range tombstones) would.
type addsRange struct{ replica.Replica }

func (r addsRange) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if err == nil && !cmd.DigestOnly {
		resp.Partition = resp.Partition.Clone().WithRangeTombstones(append(resp.Partition.RangeTombstones,
			replica.NewRangeTombstone(replica.StartAt("4"), replica.EndAt("5"), replica.DeletedAt(30, now-1)))...)
	}
	return resp, err
}

// A data answer with a range tombstone outside the query's slices is its
// replica's failure, as one with a row there is: repair would write the
// deletion to the other replicas, deleting rows the read never read.
func TestRangeTombstoneOutsideTheQueryIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"0", "1", "2", "3", "4", "5"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		c, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return addsRange{r} }),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.One, NowInSec: now,
			Query: replica.Query{Slices: []replica.Slice{{Start: replica.StartAfter("0"), End: replica.EndAt("2")}}}}

		for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.All} {
			req.Level = level
			_, err = c.Read(context.Background(), req)
			var failure *consistency.ReadFailureError
			if assert.ErrorAs(t, err, &failure, "%v", level) {
				assert.ErrorIs(t, failure.Reasons[A], coordinator.ErrOutsideQuery, "%v", level)
			}
		}
		for _, id := range []string{B, C} {
			p, _ := e.replica(id).Partition(tbl, key)
			assert.Empty(t, p.RangeTombstones, "%s was written a deletion outside the query", id)
		}

		req.Query = replica.Query{} // every row: the deletion is one of the answer's
		res, err := c.Read(context.Background(), req)
		require.NoError(t, err)
		assert.Len(t, res.Visible().Rows, 4)
	})
}
