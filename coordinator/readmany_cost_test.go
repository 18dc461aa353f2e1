package coordinator_test

import (
	"context"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
)

// A page of an IN query over 8,000 keys, 100 of them read, allocates its
// results, a KeyResult a key as ReadMany documents (568 bytes each), and
// little more: at most 16 bytes a key besides (13: the duplicate check's
// table of 8, and the 100 reads). It took 84 bytes a key besides: a map of
// every key (55 bytes a key), a list of them (16) and the page's count of
// rows of each (8), on every page.
func TestAPageOfManyKeysAllocatesItsResultsAndLittleMore(t *testing.T) {
	race.SkipPooledAllocs(t)
	const n = 8000
	cl := instantCluster(t)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
		require.NoError(t, cl.Seed(tbl, row(keys[i], "v", 10)))
	}
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1"})
	req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 100, Concurrency: 1}
	page := func() {
		res, err := e.c.ReadMany(context.Background(), req)
		if err != nil || len(res) != n || !res[100].Cut || res[99].Cut {
			t.Fatalf("%d results, %v", len(res), err)
		}
	}
	page() // the table's state, the workers

	const pages = 4
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range pages {
		page()
	}
	runtime.ReadMemStats(&after)
	perKey := (after.TotalAlloc - before.TotalAlloc) / pages / n
	results := uint64(unsafe.Sizeof(coordinator.KeyResult{}))
	assert.LessOrEqual(t, perKey, results+16, "bytes a page allocates a key; its results take %d", results)
}

// ReadMany returns a result for each key once, in the order of its first
// listing, however often and wherever keys repeat (the duplicate check is
// a table of its own, checked here against a map).
func TestReadManyReadsEachKeyOnce(t *testing.T) {
	cl := instantCluster(t)
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1"})
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b", "c", "k", "key", "k\x00", "long-key-" + string(make([]byte, 40))}), 1, 60).Draw(t, "keys")
		for i := range rapid.IntRange(0, 300).Draw(t, "distinct") {
			keys = append(keys, "n"+strconv.Itoa(i))
		}
		rapid.Permutation(keys).Draw(t, "order")
		var want []string
		seen := map[string]bool{}
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				want = append(want, k)
			}
		}
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, Limit: 7})
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(res))
		for i, r := range res {
			got[i] = r.Key
		}
		if !slices.Equal(want, got) {
			t.Fatalf("keys %q, want %q", got, want)
		}
	})
}
