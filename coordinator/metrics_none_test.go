package coordinator_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A coordinator that keeps no table's state lists its tables as it lists
// no replicas: nil, which an exporter's JSON shows as null, as it did
// before Metrics sized the list; after DropTable of the last one too.
func TestMetricsListsNoTablesAsNil(t *testing.T) {
	cl := instantCluster(t)
	c, err := coordinator.New(coordinator.Config{Locator: cl})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	m := c.Metrics()
	assert.Nil(t, m.Tables)
	assert.Nil(t, m.Replicas)
	b, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"Tables":null`)

	_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
	require.NoError(t, err)
	require.Len(t, c.Metrics().Tables, 1)
	c.DropTable(tbl)
	assert.Nil(t, c.Metrics().Tables, "after the last table is dropped")
}
