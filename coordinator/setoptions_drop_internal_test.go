package coordinator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// SetTableOptions racing DropTable: the table it found is dropped before
// it sets the options. Set on the dropped table, they went with it, and
// the table made again under its name read with the defaults though
// SetTableOptions had returned nil; they must land on the table in force.
func TestSetTableOptionsLandsOnTheTableInForce(t *testing.T) {
	fixed, err := latency.ParseSpeculativeRetry("50ms")
	require.NoError(t, err)
	c, err := New(Config{Locator: nowhere{}})
	require.NoError(t, err)
	defer c.Close()
	o := TableOptions{SpeculativeRetry: fixed}
	found := c.addTable("daily", c.cfg.DefaultTable)
	c.DropTable("daily") // between SetTableOptions' lookup and its setting
	assert.False(t, c.setOptions(found, o), "set on the dropped table")
	require.NoError(t, c.SetTableOptions("daily", o))
	assert.Equal(t, fixed, c.TableOptions("daily").SpeculativeRetry)
}
