package coordinator_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// manyKeys seeds n keys, k0 … k(n-1), on every replica of e.
func manyKeys(t *testing.T, e *env, n int) []string {
	t.Helper()
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i)
		require.NoError(t, e.cluster.Seed(tbl, row(keys[i], "v"+keys[i], 10)))
	}
	return keys
}

// One key whose read fails leaves the others' results intact: the reads do
// not share a fate.
func TestReadManyKeepsTheOthersWhenOneKeyFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := manyKeys(t, e, 5)
		bad := coordinator.LocatorFunc(func(table, key string) ([]replica.Replica, consistency.Replication, error) {
			if key == "k2" {
				return nil, consistency.Replication{}, fmt.Errorf("no ring for %q", key)
			}
			return e.cluster.Locate(table, key)
		})
		c, err := coordinator.New(coordinator.Config{Locator: bad, Liveness: e.cluster})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: append(keys, "k0"), Level: consistency.Quorum})
		require.NoError(t, err)
		require.Len(t, res, 5, "k0 asked twice, read once")
		for i, r := range res {
			assert.Equal(t, keys[i], r.Key)
			if r.Key == "k2" {
				assert.ErrorContains(t, r.Err, "no ring")
				continue
			}
			require.NoError(t, r.Err, r.Key)
			assert.True(t, r.Result.Partition.Equal(row(r.Key, "v"+r.Key, 10)), r.Key)
		}
	})
}

// Cancelling the caller's context stops the rest at once: reads running
// end with the cancellation, and keys not yet started are not read.
func TestReadManyStopsWhenCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(100)))
		}
		keys := manyKeys(t, e, 40)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(150), cancel)

		start := time.Now()
		res, err := e.c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, Concurrency: 4})
		require.NoError(t, err)
		assert.Equal(t, ms(150), time.Since(start), "returned when cancelled")
		var done, cancelled int
		for _, r := range res {
			switch {
			case r.Err == nil:
				done++
			case assert.ErrorIs(t, r.Err, context.Canceled):
				cancelled++
			}
		}
		assert.Equal(t, 4, done, "the first four reads finished at 100 ms")
		assert.Equal(t, 36, cancelled)
		settle()
		assert.Equal(t, int64(8), e.totalReads(), "two rounds of four were sent, no more")
	})
}

// counting wraps a replica and records the most requests in flight at once.
type counting struct {
	replica.Replica
	now, peak *atomic.Int64
}

func (c counting) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	n := c.now.Add(1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
	defer c.now.Add(-1)
	return c.Replica.Read(ctx, cmd)
}

// peakCounting returns a coordinator over e's cluster, whose tables never
// hedge, and the most reads its replicas have run at once.
func peakCounting(t *testing.T, e *env) (*coordinator.Coordinator, *atomic.Int64) {
	t.Helper()
	var now, peak atomic.Int64
	c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
		Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica { return counting{r, &now, &peak} })})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c, &peak
}

// The concurrency limit bounds the reads running at once.
func TestReadManyConcurrencyIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, replicatest.Behavior{Latency: replicatest.Uniform(ms(5), ms(15))})
		}
		keys := manyKeys(t, e, 50)
		c, peak := peakCounting(t, e)

		res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, Concurrency: 7})
		require.NoError(t, err)
		for _, r := range res {
			require.NoError(t, r.Err)
		}
		assert.Equal(t, int64(7), peak.Load(), "one request per read at ONE")
	})
}

func TestReadManyRejectsBadRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		for name, req := range map[string]coordinator.ManyRequest{
			"no keys":  {Table: tbl, Level: consistency.One},
			"empty":    {Table: tbl, Keys: []string{"a", ""}, Level: consistency.One},
			"no level": {Table: tbl, Keys: []string{"a"}},
			"negative": {Table: tbl, Keys: []string{"a"}, Level: consistency.One, Concurrency: -1},
		} {
			_, err := e.c.ReadMany(context.Background(), req)
			assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
		}
	})
}

// CASSANDRA-13911, testSkipEarlyTerminationRows, as an IN query: PER
// PARTITION LIMIT 2 LIMIT 3 over partitions 0 and 2, which A and B hold
// different rows and deletions of (C, which the read at ALL also asks,
// holds nothing). Partition 0 gives 0 and 1; partition 2 only 2: B's
// continuation after 2 is asked and is empty.
func TestReadManyPerPartitionAndOverallLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedOn := func(k, id string, rows ...replica.Row) {
			require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition(k, rows...), id))
		}
		for _, id := range []string{A, B, C} {
			require.NoError(t, e.cluster.Pin(tbl, "p0", A, B, C))
			require.NoError(t, e.cluster.Pin(tbl, "p2", A, B, C))
			seedOn("p0", id)
			seedOn("p2", id)
		}
		seedOn("p0", A, ins("0", 1), ins("1", 1))
		seedOn("p2", A, ins("0", 1), del("1", 42))
		seedOn("p0", B, ins("2", 1), ins("3", 1))
		seedOn("p2", B, del("0", 42), ins("1", 1), ins("2", 1))

		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"p0", "p2"},
			Level: consistency.All, Query: replica.Query{Limit: 2}, Limit: 3, NowInSec: now})
		require.NoError(t, err)
		assert.Equal(t, []string{"p0/0", "p0/1", "p2/2"}, manyRows(t, res))
		assert.False(t, res[1].Cut, "partition 2 held one row: within the limit")
		assert.Equal(t, int64(1), e.c.Metrics().Total.ShortReadRequests, "B, after its row 2 of partition 2")
	})
}

// LIMIT across keys cuts in key order: the first key's rows, then as many
// of the next as the limit leaves; the results end at the key cut.
func TestReadManyLimitAcrossKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, k := range []string{"a", "b", "c"} {
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, ins("1", 1), ins("2", 1), ins("3", 1))))
		}
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"},
			Level: consistency.Quorum, Limit: 4, NowInSec: now})
		require.NoError(t, err)
		var counts []int
		for _, r := range res {
			require.NoError(t, r.Err)
			counts = append(counts, len(r.Result.Visible().Rows))
		}
		assert.Equal(t, []int{3, 1}, counts)
		assert.Equal(t, []bool{false, true}, []bool{res[0].Cut, res[1].Cut})
		require.NotNil(t, res[1].Result.PagingState, "b can be continued after its row 1")
		next, more := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			Limit: 4, NowInSec: now}.Next(res)
		require.True(t, more)
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"b/2", "b/3", "c/1", "c/2"}, manyRows(t, res))
	})
}
