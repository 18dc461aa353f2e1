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

// ReadMany sorts an unsorted column selection once, not once a key: a
// read of 50 keys selecting (v, a) allocates about what one selecting
// (a, v) does (one copy more, give or take the collector's own), where each
// key's read sorted a copy of its own, 50 more.
func TestReadManySortsItsColumnsOnce(t *testing.T) {
	race.SkipPooledAllocs(t)
	cl := instantCluster(t)
	keys := make([]string, 50)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
		require.NoError(t, cl.Seed(tbl, row(keys[i], "v", 10)))
	}
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1"})
	allocs := func(columns ...string) float64 {
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, Columns: columns, Concurrency: 1}
		return testing.AllocsPerRun(20, func() {
			if _, err := e.c.ReadMany(context.Background(), req); err != nil {
				t.Fatal(err)
			}
		})
	}
	allocs("a", "v") // the table's state, the workers
	sorted, unsorted := allocs("a", "v"), allocs("v", "a")
	assert.LessOrEqual(t, unsorted, sorted+float64(len(keys))/5, "allocations of a read of %d keys", len(keys))
}
