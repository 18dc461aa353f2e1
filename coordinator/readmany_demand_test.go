package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// pageAll reads every page of req, and returns how many pages and rows,
// and the longest a page took.
func pageAll(t *testing.T, c *coordinator.Coordinator, req coordinator.ManyRequest) (pages, rows int, longest time.Duration) {
	t.Helper()
	for {
		start := time.Now()
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		longest = max(longest, time.Since(start))
		pages++
		for i := range res {
			require.NoError(t, res[i].Err)
			for range res[i].Result.VisibleRows() {
				rows++
			}
		}
		next, ok := req.Next(res)
		if !ok {
			return pages, rows, longest
		}
		req = next
		synctest.Wait() // the cancelled reads settle
	}
}

// seedKeys seeds n keys "k00", "k01"... of rows rows each on every replica.
func seedKeys(t *testing.T, e *env, n, rows int) []string {
	t.Helper()
	return seedKeysFrom(t, e, 0, n, rows)
}

// seedKeysFrom is seedKeys of the keys numbered from first on.
func seedKeysFrom(t *testing.T, e *env, first, n, rows int) []string {
	t.Helper()
	keys := make([]string, n)
	for k := range keys {
		keys[k] = fmt.Sprintf("k%02d", first+k)
		var rs []replica.Row
		for i := range rows {
			rs = append(rs, ins(fmt.Sprintf("%04d", i), 1))
		}
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(keys[k], rs...)))
	}
	return keys
}

// An IN query paged over keys that each give their per-partition limit
// reads each key about once: a page starts only as many keys as its rows
// left could need at that limit. Keys answering together were all read
// before the page knew itself full, and each page read every key left
// again: 30 key reads for 10 keys (Cassandra's pager reads one partition
// after another, each once).
func TestReadManyPagesReadEachKeyOnceAtAPerPartitionLimit(t *testing.T) {
	for _, n := range []int{10, 20} {
		t.Run(fmt.Sprint(n, " keys"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				keys := seedKeys(t, e, n, 1000)
				pages, rows, _ := pageAll(t, e.c, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
					Query: replica.Query{Reversed: true, Limit: 100}, PageSize: 200, NowInSec: now})
				assert.Equal(t, n/2, pages)
				assert.Equal(t, 100*n, rows)
				m := e.c.Metrics().Total
				assert.Equal(t, int64(n), m.Reads, "each key read once (%d cancelled)", m.Cancelled)
				assert.Zero(t, m.Cancelled)
			})
		})
	}
}

// Keys that give fewer rows than the per-partition limit teach the page
// to start more: it reads the first two (which could fill it at the limit
// of 100), finds 10 rows in each, then starts the 18 more it needs at
// once, rather than two at a time.
func TestReadManyPageStartsMoreKeysWhenTheyGiveFewerRows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		keys := seedKeys(t, e, 40, 10)
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
			Query: replica.Query{Limit: 100}, PageSize: 200, NowInSec: now})
		require.NoError(t, err)
		assert.Len(t, res, 21, "20 keys of 10 rows, and the first cut")
		assert.Equal(t, int64(20), e.c.Metrics().Total.Reads, "no key read past the page")
		pages, rows, longest := pageAll(t, e.c, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
			Query: replica.Query{Limit: 100}, PageSize: 200, NowInSec: now})
		assert.Equal(t, 2, pages)
		assert.Equal(t, 400, rows)
		assert.LessOrEqual(t, longest, ms(2), "two rounds of 1 ms reads a page")
	})
}

// Without a per-partition limit, a page learns from the page before how
// many rows a key gives: 10 keys of 1,000 rows in pages of 100 rows read
// the first page's 10 keys at once (nothing to go by yet), then one key a
// page, two when the key before ended the page before exactly (the 101st
// page, too, finds no row left), 119 reads for 101 pages, where every page
// started each key left up to the window, 560.
func TestReadManyPagesCarryTheRowsAKeyGave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		keys := seedKeys(t, e, 10, 1000)
		pages, rows, _ := pageAll(t, e.c, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum,
			PageSize: 100, NowInSec: now})
		assert.Equal(t, 101, pages)
		assert.Equal(t, 10_000, rows)
		assert.Equal(t, int64(10+100+9), e.c.Metrics().Total.Reads, "reads started")
	})
}

// The guess only bounds how many keys start at once: keys far smaller
// than the page before's start more as soon as one is read, and a request
// whose keys the caller replaced reads them all the same.
func TestReadManyGuessOfRowsPerKeyOnlyPacesThePage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		big := seedKeys(t, e, 2, 1000)
		var small []string
		for k := range 30 {
			small = append(small, fmt.Sprintf("s%02d", k))
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(small[k], ins("0001", 1))))
		}
		req := coordinator.ManyRequest{Table: tbl, Keys: big, Level: consistency.Quorum, PageSize: 100, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		next, ok := req.Next(res)
		require.True(t, ok)
		next.Keys, next.PagingState = small, nil // a caller's new list: its own query
		start := time.Now()
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Len(t, res, 30)
		assert.Equal(t, ms(2), time.Since(start), "one key read, then the other 29 at once")
	})
}

// Keys that fail give the page no rows, and count as keys that give none:
// behind a run of them, a page guessing 100 rows a key from the page
// before starts the rest at once after the first fails, not one a round
// (11 rounds for 10 failing keys when failures were not counted).
func TestReadManyGuessYieldsToKeysThatFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.c.SetTableOptions(tbl, coordinator.TableOptions{TombstoneFailureThreshold: 5}))
		keys := seedKeys(t, e, 13, 200)
		for _, k := range keys[1:11] { // refused for their tombstones
			var rs []replica.Row
			for i := range 10 {
				rs = append(rs, del(fmt.Sprintf("%04d", i), 2))
			}
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, rs...)))
		}
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 100, NowInSec: now}
		for page := 0; ; page++ {
			start := time.Now()
			res, err := e.c.ReadMany(context.Background(), req)
			require.NoError(t, err)
			assert.LessOrEqual(t, time.Since(start), ms(2), "page %d", page)
			next, ok := req.Next(res)
			if !ok {
				break
			}
			req = next
			synctest.Wait()
		}
	})
}

// With a per-partition limit the page goes by the limit, not by the guess:
// keys of 3 rows before keys at the limit (100) start no more keys than a
// request without the guess does.
func TestReadManyGuessLeavesAPerPartitionLimitsPacing(t *testing.T) {
	reads := func(guess bool) int64 {
		var n int64
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{})
			keys := append(seedKeys(t, e, 50, 3), seedKeysFrom(t, e, 50, 10, 200)...)
			req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, Query: replica.Query{Limit: 100},
				PageSize: 200, NowInSec: now}
			for {
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				next, ok := req.Next(res)
				if !ok {
					break
				}
				if req = next; !guess {
					req = coordinator.ManyRequest{Table: tbl, Keys: next.Keys, PagingState: next.PagingState, Level: consistency.Quorum,
						Query: next.Query, PageSize: 200, NowInSec: now}
				}
				synctest.Wait()
			}
			n = e.c.Metrics().Total.Reads
		})
		return n
	}
	assert.Equal(t, reads(false), reads(true))
}
