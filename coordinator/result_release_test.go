package coordinator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// disagreeing returns a coordinator over three replicas that stay stale
// (they acknowledge repairs without applying them), each holding, for
// every key, ten rows of three cells where it alone wrote its own cell
// once more: every QUORUM read of a key mismatches and merges. The values
// name the key, so that two keys' merges differ everywhere.
func disagreeing(t *testing.T, keys ...string) *coordinator.Coordinator {
	t.Helper()
	rows := make(map[string]int, len(keys))
	for _, k := range keys {
		rows[k] = 10
	}
	return disagreeingRows(t, rows)
}

// disagreeingRows is disagreeing with rows[k] rows for key k.
func disagreeingRows(t *testing.T, sizes map[string]int) *coordinator.Coordinator {
	t.Helper()
	return staleCoordinator(t, disagreeingSeed(sizes))
}

// disagreeingSeed is what disagreeingRows seeds replica i with.
func disagreeingSeed(sizes map[string]int) func(i int) []replica.Partition {
	return func(i int) []replica.Partition {
		var ps []replica.Partition
		for k, n := range sizes {
			rows := make([]replica.Row, n)
			for j := range rows {
				cells := make([]replica.Cell, 3)
				for c := range cells {
					ts := int64(10)
					if c == i {
						ts++
					}
					cells[c] = replica.Live(fmt.Sprint("c", c), fmt.Sprintf("%s-%d-%d", k, j, ts), ts)
				}
				rows[j] = replica.NewRow(fmt.Sprintf("%s%04d", k, j), cells...)
			}
			ps = append(ps, replica.NewPartition(k, rows...))
		}
		return ps
	}
}

// staleCoordinator returns a coordinator over three replicas that stay
// stale (they acknowledge repairs without applying them), replica i
// holding the partitions seed(i) returns, closed when t ends.
func staleCoordinator(t *testing.T, seed func(i int) []replica.Partition) *coordinator.Coordinator {
	t.Helper()
	c := openStaleCoordinator(t, coordinator.Config{}, seed)
	t.Cleanup(func() { c.Close() })
	return c
}

// openStaleCoordinator is staleCoordinator, configured by cfg but for its
// locator, liveness and datacenter, for a caller that closes it, so that t
// does not keep it, and the replicas' data, until it ends.
func openStaleCoordinator(t *testing.T, cfg coordinator.Config, seed func(i int) []replica.Partition) *coordinator.Coordinator {
	t.Helper()
	cl := instantCluster(t)
	reps, repl, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	stale := make([]replica.Replica, len(reps))
	for i, r := range reps {
		for _, p := range seed(i) {
			require.NoError(t, cl.Replica(r.Endpoint().ID).Seed(tbl, p))
		}
		stale[i] = acksWithoutApplying{r}
	}
	cfg.Locator = coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return stale, repl, nil })
	cfg.Liveness, cfg.LocalDatacenter = cl, "dc1"
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	return c
}

// readKey reads k at level, which must mismatch. It allocates nothing of
// its own unless it fails.
func readKey(t *testing.T, c *coordinator.Coordinator, k string, level consistency.Level) coordinator.Result {
	t.Helper()
	res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: level})
	if err != nil || !res.Trace.DigestMismatch {
		t.Fatalf("read of %s: mismatch %v, %v", k, res.Trace.DigestMismatch, err)
	}
	return res
}

// A read after a Release builds its merge in the released result's memory,
// and the merge is right: nothing of the released partition shows (reads
// at ALL, so that every read merges the same three versions).
func TestReleasedResultsMemoryServesTheNextMerge(t *testing.T) {
	c := disagreeing(t, "a", "b")
	requireReleasedMemoryReused(t, func(k string) coordinator.Result { return readKey(t, c, k, consistency.All) })
}

// A limited read's merge, and short-read protection's first, builds in
// a released result's memory too, and is right.
func TestReleasedMemoryServesALimitedReadsMerge(t *testing.T) {
	c := disagreeing(t, "a", "b")
	requireReleasedMemoryReused(t, func(k string) coordinator.Result {
		t.Helper()
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.All, Query: replica.Query{Limit: 4}})
		require.NoError(t, err)
		require.True(t, res.Trace.DigestMismatch)
		require.Len(t, res.Partition.Rows, 4)
		return res
	})
}

// requireReleasedMemoryReused reads keys "a" and "b" by turns, releasing
// each result before the next read, and checks that every result is what
// the first read of its key returned, and that some read built its merge
// where the released one was. The pool may drop what it is given (the race
// detector makes it drop some on purpose), so the memory must come back
// within a few reads, not at once.
func requireReleasedMemoryReused(t *testing.T, read func(key string) coordinator.Result) {
	t.Helper()
	want := map[string]replica.Partition{"a": read("a").Partition, "b": read("b").Partition}
	reused := 0
	for i := range 20 {
		res := read([]string{"a", "b"}[i%2])
		rows := &res.Partition.Rows[0]
		res.Release()
		assert.Empty(t, res.Partition.Rows, "Release left the partition")
		next := read([]string{"b", "a"}[i%2])
		require.True(t, want[next.Partition.Key].Equal(next.Partition), "a merge in released memory:\n got  %s\n want %s", next.Partition, want[next.Partition.Key])
		if &next.Partition.Rows[0] == rows {
			reused++
		}
		next.Release()
	}
	assert.Positive(t, reused, "no merge was built in a released result's memory")
}

// A copy of a released result gives back nothing: the memory may be
// another read's result by then, and a third read built there would write
// over it.
func TestReleasingACopyOfAReleasedResultDoesNothing(t *testing.T) {
	c := disagreeing(t, "a", "b")
	for range 20 {
		first := readKey(t, c, "a", consistency.All)
		copied := first
		first.Release()
		held := readKey(t, c, "a", consistency.All) // maybe in first's memory
		want := held.Partition.Clone()
		copied.Release() // must not hand held's memory out
		other := readKey(t, c, "b", consistency.All)
		require.True(t, want.Equal(held.Partition), "a held result changed after a copy of a released one was released:\n got  %s\n want %s", held.Partition, want)
		held.Release()
		other.Release()
	}
}

// Releasing a result that is a replica's own answer (its replicas agreed)
// gives nothing back: with in-memory replicas the answer is their stored
// data, which a later merge would otherwise write over.
func TestReleasingAnAgreedResultGivesBackNothing(t *testing.T) {
	c := disagreeing(t, "a")
	res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	require.NoError(t, err)
	require.False(t, res.Trace.DigestMismatch)
	want := res.Partition.Clone()
	res.Release()
	assert.Empty(t, res.Partition.Rows)
	for range 5 {
		merged := readKey(t, c, "a", consistency.All)
		merged.Release()
	}
	again, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	require.NoError(t, err)
	assert.True(t, want.Equal(again.Partition), "the replicas' data changed:\n got  %s\n want %s", again.Partition, want)
}

// A mismatch read whose merge reuses a released result's memory allocates
// three objects fewer than the 17 of one that does not: the merge's rows
// and cells, and the list of diffs; the blocks' own record is kept with
// them.
func TestAReleasedMismatchAllocates14Objects(t *testing.T) {
	race.SkipPooledAllocs(t)
	c := disagreeing(t, "a")
	read := func() {
		res := readKey(t, c, "a", consistency.Quorum)
		res.Release()
	}
	read()
	assert.Equal(t, 14.0, testing.AllocsPerRun(500, read))
}

// Reads of partitions of different sizes by turns each build in the memory
// of a released result of their size: the blocks go back to a pool for
// merges of that size. With one pool for all, a merge of ten rows got the
// blocks of one of a thousand, too large to build in, and built in new
// memory; the next merge of a thousand rows got those, too small, and so
// on: none reused any.
func TestReleasedMismatchesOfManySizesEachReuseMemory(t *testing.T) {
	sizes := map[string]int{"a": 10, "b": 1000, "c": 100}
	c := disagreeingRows(t, sizes)
	last := map[string]*replica.Row{}
	reused := map[string]int{}
	for range 20 {
		for _, k := range []string{"a", "b", "c", "b"} {
			res := readKey(t, c, k, consistency.Quorum)
			require.Len(t, res.Partition.Rows, sizes[k])
			if &res.Partition.Rows[0] == last[k] {
				reused[k]++
			}
			last[k] = &res.Partition.Rows[0]
			res.Release()
		}
	}
	for k := range sizes {
		assert.Positive(t, reused[k], "no merge of key %s (%d rows) was built in a released result's memory", k, sizes[k])
	}
}
