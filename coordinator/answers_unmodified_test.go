package coordinator_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// keeping is a Replica that keeps every data answer it gives, and a copy.
type keeping struct {
	replica.Replica
	mu    *sync.Mutex
	given *[][2]replica.Partition
}

func (k keeping) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := k.Replica.Read(ctx, cmd)
	if err == nil && !cmd.DigestOnly {
		k.mu.Lock()
		*k.given = append(*k.given, [2]replica.Partition{resp.Partition, resp.Partition.Clone()})
		k.mu.Unlock()
	}
	return resp, err
}

// The coordinator reads what replicas answer and never writes to it, in
// every phase (reconcile, repair, short-read protection), so that an
// adapter may answer from memory it shares with its store, as Respond does.
func TestTheCoordinatorDoesNotModifyAnswers(t *testing.T) {
	for _, mode := range []repair.Mode{repair.Blocking, repair.Async} {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				var given [][2]replica.Partition
				cl := instantCluster(t)
				require.NoError(t, cl.Pin(tbl, key, A, B, C))
				rows := func(ts int64, cks ...string) replica.Partition {
					var rs []replica.Row
					for _, ck := range cks {
						rs = append(rs, replica.NewRow(ck, replica.Live("v", "x"+ck, ts)))
					}
					return replica.NewPartition(key, rs...)
				}
				require.NoError(t, cl.SeedOn(tbl, rows(10, "a", "b", "c", "d"), A))
				require.NoError(t, cl.SeedOn(tbl, rows(20, "b", "d"), B))
				deleted := replica.NewPartition(key, replica.NewRow("a").WithDeletion(replica.DeletedAt(40, 1)),
					replica.NewRow("b").WithDeletion(replica.DeletedAt(40, 1)))
				require.NoError(t, cl.SeedOn(tbl, deleted, C)) // A's first two rows are gone
				loc := wrapping(cl, 3, func(r replica.Replica) replica.Replica { return keeping{r, &mu, &given} })
				c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl,
					DefaultTable: coordinator.TableOptions{ReadRepair: mode}})
				require.NoError(t, err)
				for _, q := range []replica.Query{{Limit: 2}, {Limit: 1, Reversed: true}, {}} {
					_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: q, NowInSec: 100})
					require.NoError(t, err)
				}
				m := c.Metrics().Total
				require.NoError(t, c.Close())
				settle()
				require.Positive(t, m.DigestMismatches, "the reads reconciled")
				require.Positive(t, m.ShortReadRequests, "and asked for more rows")
				require.NotEmpty(t, given)
				for i, g := range given {
					assert.True(t, g[0].Equal(g[1]), "answer %d was modified: %v, was %v", i, g[0], g[1])
				}
			})
		})
	}
}
