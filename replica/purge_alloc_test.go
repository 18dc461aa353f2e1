package replica_test

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// Purging a partition rebuilds only the rows it changes, their cells in one
// array (appending grew a row's five times for ten cells), and shares the
// others: a range tombstone past gc grace and one expired cell in a 100-row
// partition cost the answer's row list and that array.
func TestPurgeAllocatesOnlyForTheRowsItChanges(t *testing.T) {
	race.SkipPooledAllocs(t)
	const rows = 100
	p := tenCellRows(rows)
	p.Rows[7].Cells[2] = replica.Expiring("c2", "v", 1000, 10, 90) // expired at 100: a tombstone
	p.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("s"), replica.EndAt("t"), replica.DeletedAt(1, 10))}
	assert.NoError(t, p.Validate())
	got := p.Purge(100, 50)
	assert.Len(t, got.Rows, rows)
	assert.Empty(t, got.RangeTombstones)
	assert.True(t, got.Rows[7].Cells[2].Tombstone)
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { p.Purge(100, 50) }), 2.0)
}

// A time series whose older rows have expired: the rows rebuilt take their
// cells from arrays each twice the one before, O(log n) allocations where
// each row cost one, 502 for 500 rows; each row's part is capped, so that
// appending to it copies it.
func TestPurgeOfManyExpiredRowsAllocatesLogarithmically(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := replica.NewPartition("k")
	for r := range 500 {
		p.Rows = append(p.Rows, replica.NewRow(fmt.Sprintf("r%03d", r),
			replica.Expiring("a", "v", 1000, 10, 90), replica.Live("b", "v", 1000))) // a expired at 100
	}
	assert.NoError(t, p.Validate())
	got := p.Purge(100, 50)
	assert.Len(t, got.Rows, 500)
	next := got.Rows[1].Cells[0]
	assert.True(t, next.Tombstone)
	assert.Equal(t, len(got.Rows[0].Cells), cap(got.Rows[0].Cells))
	_ = append(got.Rows[0].Cells, replica.Live("c", "v", 1))
	assert.Equal(t, next, got.Rows[1].Cells[0], "appending to a row's cells leaves the next row's alone")
	// The row list, and arrays of 2, 4, … cells up to the 1,000: 2(2⁹−1) ≥ 1,000.
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { p.Purge(100, 50) }), 1.0+9)
}

// A lone expired cell costs the answer's row list and its own row's cells,
// not room for the cells of every row after it (51.8 KB for row 50 of
// 100 when the purge sized one array for them all).
func TestPurgeOfOneExpiredCellReservesOnlyItsRow(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := tenCellRows(100)
	p.Rows[50].Cells[4] = replica.Expiring("c4", "v", 1000, 10, 90) // expired at 100: a tombstone
	assert.NoError(t, p.Validate())
	need := 100*unsafe.Sizeof(replica.Row{}) + 10*unsafe.Sizeof(replica.Cell{})
	got := bytesPerRun(20, func() { p.Purge(100, 50) })
	assert.LessOrEqual(t, got, need+need/8, "need %d bytes and size classes' rounding", need)
}

// bytesPerRun is testing.AllocsPerRun for the bytes f allocates.
func bytesPerRun(runs int, f func()) uintptr {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return uintptr((after.TotalAlloc - before.TotalAlloc) / uint64(runs))
}

// tenCellRows is a partition of n rows of ten live cells each.
func tenCellRows(n int) replica.Partition {
	p := replica.NewPartition("k")
	for r := range n {
		var cs []replica.Cell
		for c := range 10 {
			cs = append(cs, replica.Live(fmt.Sprintf("c%d", c), "v", 1000))
		}
		p.Rows = append(p.Rows, replica.NewRow(fmt.Sprintf("r%03d", r), cs...))
	}
	return p
}

// A purge that changes none of the rows, here a range tombstone past gc
// grace over no row, shares the row list itself, capped: it allocates
// nothing, where it copied the list.
func TestPurgeThatChangesNoRowSharesTheRowList(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := tenCellRows(100)
	p.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("s"), replica.EndAt("t"), replica.DeletedAt(1, 10))}
	assert.NoError(t, p.Validate())
	got := p.Purge(100, 50)
	assert.Empty(t, got.RangeTombstones)
	assert.Same(t, &p.Rows[0], &got.Rows[0])
	assert.Equal(t, len(got.Rows), cap(got.Rows), "capped: appending to it copies it")
	assert.Zero(t, testing.AllocsPerRun(20, func() { p.Purge(100, 50) }))
}
