package coordinator_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// pastLimit answers as a replica that reads past its limit does: extra
// more live rows than asked (its limit raised), or, at -1, every row of
// the query's slices (limitLost's). Its answer is still whole up to its
// last row, only longer than asked.
type pastLimit struct {
	replica.Replica
	mu    *sync.Mutex
	extra map[string]int // by replica
}

func (p pastLimit) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	p.mu.Lock()
	x := p.extra[p.Endpoint().ID]
	p.mu.Unlock()
	switch {
	case cmd.Query.Limit == 0:
	case x < 0:
		cmd.Query.Limit = 0
	default:
		cmd.Query.Limit += x
	}
	return p.Replica.Read(ctx, cmd)
}

// Paging random, disagreeing replicas of which any may answer past its
// limit (by 1 to 3 rows, or with every row) returns what paging replicas
// that keep to it returns: through Read, the merged view whole; through
// ReadMany with Next, each key's rows under the per-partition limit, up
// to the limit. Short-read protection takes a longer answer for what it
// is, an answer whole to its last row, and the result is cut at the limit
// (TestAnAnswerPastTheLimitIsCut shows it for replicas that agree).
func TestPagingOverAnswersPastTheLimit(t *testing.T) {
	for _, tc := range pagingModes {
		t.Run(tc.name, func(t *testing.T) {
			opts := policy(t, tc.retry)
			opts.ReadRepair, opts.Strategy = tc.mode, tc.strategy
			cl := instantCluster(t)
			var mu sync.Mutex
			extra := map[string]int{}
			c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: opts,
				Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return pastLimit{r, &mu, extra} })})
			require.NoError(t, err)
			t.Cleanup(func() { c.Close() })
			quorum := tc.level == consistency.Quorum
			g := newPageGen(quorum)
			n := 0
			rapid.Check(t, func(t *rapid.T) {
				n++
				mu.Lock()
				for _, r := range cl.Replicas() {
					extra[r.Endpoint().ID] = rapid.IntRange(-1, 3).Draw(t, "extra")
				}
				mu.Unlock()
				if rapid.Bool().Draw(t, "many") {
					req := coordinator.ManyRequest{Table: tbl, Level: tc.level, Query: g.query(t), Columns: g.columns(t),
						Limit: rapid.IntRange(0, 8).Draw(t, "limit"), Concurrency: rapid.IntRange(1, 3).Draw(t, "conc"), NowInSec: now}
					pageManyAgainstWhole(t, c, cl, req, fmt.Sprint("pastmany", n), 4, func(k string) []replica.Partition {
						return modeVersions(t, g, k, quorum)
					})
					return
				}
				req := coordinator.Request{Table: tbl, Key: fmt.Sprint("past", n), Level: tc.level,
					Query: g.query(t), Columns: g.columns(t), NowInSec: now}
				vs := modeVersions(t, g, req.Key, quorum)
				pagesAgainstWhole(t, cl, c, req, vs)
			})
		})
	}
}
