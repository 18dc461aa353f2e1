package coordinator_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Metrics lists the tables sorted by name, each with its own counters, and
// a Total that sums them, whatever order the tables were added in.
func TestMetricsTablesSortedWithTheirOwnCounts(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: instantCluster(t)})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	names := []string{"m", "c", "x", "a", "q", "b"}
	for i, name := range names {
		for range i + 1 { // table names[i] serves i+1 reads
			_, err := c.Read(context.Background(), coordinator.Request{Table: name, Key: key, Level: consistency.One})
			require.NoError(t, err)
		}
	}

	m := c.Metrics()
	got := make([]string, len(m.Tables))
	for i, tm := range m.Tables {
		got[i] = tm.Table
		assert.Equal(t, int64(slices.Index(names, tm.Table)+1), tm.Reads, tm.Table)
	}
	assert.True(t, slices.IsSortedFunc(got, strings.Compare), "%v", got)
	assert.ElementsMatch(t, names, got)
	assert.Equal(t, int64(21), m.Total.Reads)
}
