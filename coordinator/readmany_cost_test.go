package coordinator_test

import (
	"context"
	"math"
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

// The pages Next reads of an IN query cost what they read, not what the
// list has left: pages of 100 rows over 20,000 keys left allocate about
// what pages over 600 do. Every page returned a KeyResult (568 bytes) for
// every key left, and checked them all for repeats: 11.5 MB a page of 100
// rows over 20,000 keys, 59 MB over 100,000.
func TestPagesOfALongINListCostWhatTheyRead(t *testing.T) {
	race.SkipPooledAllocs(t)
	const n = 20000
	cl := instantCluster(t)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
		require.NoError(t, cl.Seed(tbl, row(keys[i], "v", 10)))
	}
	// The pages measured must read the replicas the warm-up read: on the
	// real clock one slow answer (a collection, a preemption) moved the
	// snitch or a hedge to the third replica, whose first read of each key
	// builds its view, 25 KB a page more (a review saw 1 failure in 20
	// runs).
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "NEVER"),
		Snitch: coordinator.SnitchConfig{Disabled: true}})
	var before, after runtime.MemStats
	perPage := func(keys []string) (first, later uint64) {
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 100, Concurrency: 1}
		page := func() {
			res, err := e.c.ReadMany(context.Background(), req)
			if err != nil || len(res) != 101 || !res[100].Cut || res[99].Cut {
				t.Fatalf("%d results, %v", len(res), err)
			}
			var more bool
			if req, more = req.Next(res); !more {
				t.Fatal("no next page")
			}
		}
		runtime.ReadMemStats(&before)
		page() // the first page checks the keys for repeats
		runtime.ReadMemStats(&after)
		first = after.TotalAlloc - before.TotalAlloc
		// The least of four pages: a collection during one empties the
		// pools it draws from (encoders, reads), and their refill is no
		// cost of the keys left.
		later = math.MaxUint64
		for range 4 {
			runtime.ReadMemStats(&before)
			page()
			runtime.ReadMemStats(&after)
			later = min(later, after.TotalAlloc-before.TotalAlloc)
		}
		return first, later
	}
	perPage(keys[:600]) // the table's state, the workers
	_, few := perPage(keys[:600])
	first, many := perPage(keys)
	results := uint64(unsafe.Sizeof(coordinator.KeyResult{}))
	t.Logf("a page of 100 rows allocates %d bytes over 600 keys, %d over %d (the first %d); a KeyResult takes %d", few, many, n, first, results)
	assert.LessOrEqual(t, many, few+few/10, "bytes a page allocates over %d keys left, against 600", n)
	// The first page's check for repeats takes a table of 6 bytes a key
	// (and Next's, once, another), and its Next two copies of the keys
	// left, a string header each (the request's, and its own that the keys
	// a page reads are checked against), which the pages after share: 44
	// bytes a key, held to 48 (the tables took 8 to 16 bytes a key each).
	assert.LessOrEqual(t, first, many+3*16*n, "bytes the first page allocates over %d keys", n)
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
