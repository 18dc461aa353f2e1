package coordinator_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
)

// A page of an IN query allocates its results once, as a read of the same
// keys without a page does: grown by appends from nothing, a page of 100
// keys allocated them in eight arrays (a KeyResult is 584 bytes) and its
// rows' counts in eight more.
func TestAPageAllocatesItsResultsOnce(t *testing.T) {
	race.SkipPooledAllocs(t)
	cl := instantCluster(t)
	keys := make([]string, 200)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
		require.NoError(t, cl.Seed(tbl, row(keys[i], "v", 10)))
	}
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1"})
	allocs := func(req coordinator.ManyRequest) float64 {
		return testing.AllocsPerRun(20, func() {
			res, err := e.c.ReadMany(context.Background(), req)
			if err != nil || len(res) < 100 {
				t.Fatalf("%d results, %v", len(res), err)
			}
		})
	}
	whole := coordinator.ManyRequest{Table: tbl, Keys: keys[:100], Level: consistency.Quorum, Concurrency: 1}
	page := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, PageSize: 100, Concurrency: 1}
	allocs(whole) // the table's state, the workers
	w, p := allocs(whole), allocs(page)
	t.Logf("100 keys read whole: %.0f allocations; a page of 100 rows of 200 keys: %.0f", w, p)
	// The page's own: its watch of the context, the cancel of the reads
	// past it, the rows' counts.
	assert.LessOrEqual(t, p, w+6, "allocations of a page of 100 rows")
}
