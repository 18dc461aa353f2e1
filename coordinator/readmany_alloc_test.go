package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
)

// readManyAllocs is the allocations of one ReadMany of req, averaged.
func readManyAllocs(t *testing.T, e *env, req coordinator.ManyRequest) float64 {
	return testing.AllocsPerRun(20, func() {
		if _, err := e.c.ReadMany(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	})
}

// ReadMany sorts an unsorted column selection once, not once a key: a
// read of 50 keys selecting (v, a) allocates about what one selecting
// (a, v) does (one copy more, give or take the collector's own), where each
// key's read sorted a copy of its own, 50 more.
func TestReadManySortsItsColumnsOnce(t *testing.T) {
	race.SkipPooledAllocs(t)
	e := newEnvOn(t, instantCluster(t), coordinator.Config{LocalDatacenter: "dc1"})
	keys := manyKeys(t, e, 50)
	allocs := func(columns ...string) float64 {
		return readManyAllocs(t, e, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, Columns: columns, Concurrency: 1})
	}
	allocs("a", "v") // the table's state, the workers
	sorted, unsorted := allocs("a", "v"), allocs("v", "a")
	assert.LessOrEqual(t, unsorted, sorted+float64(len(keys))/5, "allocations of a read of %d keys", len(keys))
}

// A page of an IN query allocates its results once, as a read of the same
// keys without a page does: grown by appends from nothing, a page of 100
// keys allocated them in eight arrays (a KeyResult is 584 bytes) and its
// rows' counts in eight more.
func TestAPageAllocatesItsResultsOnce(t *testing.T) {
	race.SkipPooledAllocs(t)
	e := newEnvOn(t, instantCluster(t), coordinator.Config{LocalDatacenter: "dc1"})
	keys := manyKeys(t, e, 200)
	whole := coordinator.ManyRequest{Table: tbl, Keys: keys[:100], Level: consistency.Quorum, Concurrency: 1}
	page := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 100, Concurrency: 1}
	readManyAllocs(t, e, whole) // the table's state, the workers
	// The least of three: a collection during a run empties the pools the
	// reads draw from, and their refill is no cost of the page (a loaded
	// machine saw 8 more once).
	least := func(req coordinator.ManyRequest) float64 {
		return min(readManyAllocs(t, e, req), readManyAllocs(t, e, req), readManyAllocs(t, e, req))
	}
	w, p := least(whole), least(page)
	t.Logf("100 keys read whole: %.0f allocations; a page of 100 rows of 200 keys: %.0f", w, p)
	// The page's own: its watch of the context, the cancel of the reads
	// past it, the rows' counts; growing its results took 14 more.
	assert.LessOrEqual(t, p, w+8, "allocations of a page of 100 rows")
}
