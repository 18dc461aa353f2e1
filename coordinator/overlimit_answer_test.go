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

// limitLost answers as a transport that lost the query's limit does:
// every row of the query's slices.
type limitLost struct{ replica.Replica }

func (l limitLost) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	cmd.Query.Limit = 0
	return l.Replica.Read(ctx, cmd)
}

// A read returns no more live rows than its limit, and a paging state
// after the last of them, even from replicas that answered more, as it
// already did after a digest mismatch and as Cassandra's pager trims a
// page to its size.
func TestAnAnswerPastTheLimitIsCut(t *testing.T) {
	for _, level := range []consistency.Level{consistency.One, consistency.All} {
		t.Run(level.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				all := []string{"1", "2", "3", "4", "5"}
				e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
				c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
					Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica { return limitLost{r} })})
				require.NoError(t, err)
				defer c.Close()

				req := coordinator.Request{Table: tbl, Key: key, Level: level, Query: replica.Query{Limit: 2}, NowInSec: now}
				assert.Equal(t, [][]string{{"1", "2"}, {"3", "4"}, {"5"}}, pageSizes(t, c, req, 0, 0, 0), "pages of LIMIT 2")

				req.Query.Limit = 3
				assert.Equal(t, [][]string{{"1", "2"}, {"3"}}, pageSizes(t, c, req, 2, 2), "LIMIT 3 in pages of 2")
			})
		})
	}
}
