package replica_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// Purging a partition copies each row's cells into a slice of the row's
// size: one allocation a row, where appending grew it five times for ten
// cells.
func TestPurgeAllocatesOnceARow(t *testing.T) {
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
	// A range tombstone past gc grace makes the purge copy the partition.
	p.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("s"), replica.EndAt("t"), replica.DeletedAt(1, 10))}
	assert.NoError(t, p.Validate())
	got := p.Purge(100, 50)
	assert.Len(t, got.Rows, rows)
	assert.Empty(t, got.RangeTombstones)
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { p.Purge(100, 50) }), float64(rows+10))
}
