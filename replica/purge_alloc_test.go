package replica_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// Purging a partition rebuilds only the rows it changes, each into a
// slice of the row's size (appending grew it five times for ten cells),
// and shares the others: a range tombstone past gc grace and one expired
// cell in a 100-row partition cost the answer's row list and one row.
func TestPurgeAllocatesOnlyForTheRowsItChanges(t *testing.T) {
	race.SkipPooledAllocs(t)
	const rows = 100
	p := replica.NewPartition("k")
	for r := range rows {
		var cs []replica.Cell
		for c := range 10 {
			cs = append(cs, replica.Live(fmt.Sprintf("c%d", c), "v", 1000))
		}
		p.Rows = append(p.Rows, replica.NewRow(fmt.Sprintf("r%03d", r), cs...))
	}
	p.Rows[7].Cells[2] = replica.Expiring("c2", "v", 1000, 10, 90) // expired at 100: a tombstone
	p.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("s"), replica.EndAt("t"), replica.DeletedAt(1, 10))}
	assert.NoError(t, p.Validate())
	got := p.Purge(100, 50)
	assert.Len(t, got.Rows, rows)
	assert.Empty(t, got.RangeTombstones)
	assert.True(t, got.Rows[7].Cells[2].Tombstone)
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { p.Purge(100, 50) }), 2.0)
}
