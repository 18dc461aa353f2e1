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

// selfShadowing answers a read of the whole partition with its limited
// answer plus a range tombstone from just after its last row (before its
// first, reversed) to the end of the partition, at timestamp 50: a
// tombstone its answer does not close at its last row, as Respond would.
// Its continuations (reads after a row) are answered honestly: rows at
// timestamp 10, which that tombstone covers. So its version, merged with
// each continuation, never ends further than its first answer did.
type selfShadowing struct{ replica.Replica }

func (r selfShadowing) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if err != nil || cmd.DigestOnly || cmd.Query.Slices != nil {
		return resp, err
	}
	last, ok := resp.Partition.LastClustering(cmd.Query)
	if !ok {
		return resp, err
	}
	rt := replica.NewRangeTombstone(replica.StartAfter(last), replica.Top(), replica.DeletedAt(50, now-100))
	if cmd.Query.Reversed {
		rt = replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore(last), replica.DeletedAt(50, now-100))
	}
	resp.Partition = resp.Partition.WithRangeTombstones(rt)
	return resp, nil
}

// Each short-read round makes progress. A (above) answers LIMIT 2 with
// rows 0 and 1, which B and C deleted; asked for the rows after 1, it
// answers 2 and 3, full, and is next asked for the rows after 3, as
// Cassandra's ShortReadRowsProtection tracks lastClustering from the
// replica's own rows. The coordinator took A's last row from its version
// merged with the continuation, in which A's own tombstone hides 2 and 3,
// and asked for the rows after 1 again and again: 5,000 identical requests
// until the read timed out after 5 s (found by a review of short-read
// protection).
func TestShortReadRoundsMakeProgressPastRowsTheirReplicaShadows(t *testing.T) {
	for _, rev := range []bool{false, true} {
		t.Run(map[bool]string{false: "asc", true: "desc"}[rev], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				all := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
				deleted := []replica.Row{del("0", 20), del("1", 20)}
				if rev {
					deleted = []replica.Row{del("9", 20), del("8", 20)}
				}
				e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all, deleted...), seeded(t, all, deleted...))
				c, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return selfShadowing{r} }),
					Liveness: e.cluster, DefaultTable: policy(t, "NEVER")})
				require.NoError(t, err)
				defer c.Close()

				start := time.Now()
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
					Query: replica.Query{Limit: 2, Reversed: rev}, NowInSec: now})
				took := time.Since(start)
				n := c.Metrics().Total.ShortReadRequests
				t.Logf("err %v after %v, %d short-read requests", err, took, n)
				same := 0
				for _, rq := range res.Trace.Requests {
					if rq.Phase == coordinator.PhaseShortRead && rq.Endpoint == A {
						same++
					}
				}
				assert.Less(t, n, int64(20), "short-read requests (A was asked %d times)", same)
				assert.Less(t, took, time.Second, "the read ran until its timeout")
			})
		})
	}
}
