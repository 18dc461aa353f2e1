package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// The view of a 100-row partition takes two allocations, its rows and one
// array of all their cells, where it took two a row; each row's cells are
// capped, so that appending to one copies it rather than overwrite the
// next row's.
func TestVisibleAllocatesTwice(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := tenCellRows(100)
	p.Rows[3].Cells[4] = replica.Tombstone("c4", 2000, 10) // row 3 shows nine cells
	require.NoError(t, p.Validate())
	v := p.Visible(100)
	require.Len(t, v.Rows, 100)
	assert.Len(t, v.Rows[3].Cells, 9)
	assert.Equal(t, len(v.Rows[3].Cells), cap(v.Rows[3].Cells))
	next := v.Rows[4].Cells[0]
	_ = append(v.Rows[3].Cells, replica.Live("x", "y", 1))
	assert.Equal(t, next, v.Rows[4].Cells[0], "appending to a row's cells leaves the next row's alone")
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { p.Visible(100) }), 2.0)
}
