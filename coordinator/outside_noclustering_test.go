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

// A table declared without clustering columns holds one row a partition,
// with the empty clustering: an answer with a row that has a clustering key
// (a schema the option misdescribes, or a replica's bug) is its replica's
// failure, as a row outside the query is. Taken for the partition's only
// row, it would end a page with no paging state, and the client would never
// see the row after it.
func TestAnswerWithClusteringKeyInTableWithoutIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		only := replica.NewPartition(key, ins("", 10))
		e := srpEnv(t, coordinator.TableOptions{}, only, only, only)
		c, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return addsRow{r} }),
			Liveness: e.cluster, DefaultTable: coordinator.TableOptions{NoClusteringColumns: true, SpeculativeRetry: policy(t, "NEVER").SpeculativeRetry},
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()

		for _, level := range []consistency.Level{consistency.One, consistency.Quorum} {
			_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, NowInSec: now,
				Query: replica.Query{Limit: 1}})
			var failure *consistency.ReadFailureError
			require.ErrorAs(t, err, &failure, "%v", level)
			assert.ErrorIs(t, failure.Reasons[A], coordinator.ErrOutsideQuery, "%v", level)
			assert.ErrorContains(t, failure.Reasons[A], `row "z" in a table without clustering columns`, "%v", level)
		}
	})
}
