package repair_test

import (
	"fmt"
	"math/bits"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// wide returns a partition of n rows of four cells, the rows numbered from
// first in steps of step.
func wide(n, first, step int) replica.Partition {
	rows := make([]replica.Row, n)
	for i := range rows {
		rows[i] = row(fmt.Sprintf("r%06d", first+i*step),
			live("a", "value a", 1), live("b", "value b", 1), tomb("c", 1, 1), live("d", "value d", 1))
	}
	return part("k", rows...)
}

func allocs(f func()) int { return int(testing.AllocsPerRun(20, f)) }

// Merge allocates a fixed handful of blocks, however many rows, cells and
// versions it compares, when the versions mostly agree.
func TestMergeAllocationsDoNotGrowWithInput(t *testing.T) {
	mergeOf := func(vs ...replica.Partition) func() {
		return func() {
			_, err := repair.Merge(vs...)
			require.NoError(t, err)
		}
	}
	small, large := wide(10, 0, 1), wide(1000, 0, 1)
	base := allocs(mergeOf(small))
	assert.LessOrEqual(t, base, 6)
	assert.Equal(t, base, allocs(mergeOf(large)), "100 times the rows")
	assert.Equal(t, base, allocs(mergeOf(large, large, large, large, large, large, large, large)), "8 versions")
}

// When versions disjoin, the output outgrows the largest version and the
// arenas double: O(log n) allocations for n output cells, not O(n).
func TestMergeAllocationsAreLogarithmicInOutput(t *testing.T) {
	for _, n := range []int{10, 100, 1000} {
		evens, odds := wide(n, 0, 2), wide(n, 1, 2)
		got := allocs(func() { _, _ = repair.Merge(evens, odds) })
		assert.LessOrEqual(t, got, 6+3*bits.Len(uint(8*n)), "%d rows", 2*n)
	}
}

func TestDiffOfAnUpToDateVersionDoesNotAllocate(t *testing.T) {
	p := wide(100, 0, 1)
	assert.Zero(t, allocs(func() { repair.Diff(p, p) }))
}

func TestDiffAllocationsAreLogarithmicInOutput(t *testing.T) {
	for _, n := range []int{10, 100, 1000} {
		p := wide(n, 0, 1)
		got := allocs(func() { repair.Diff(p, part("k")) })
		assert.LessOrEqual(t, got, 3*bits.Len(uint(4*n)), "%d rows", n)
	}
}

// Memory follows the output: a partition deletion that wipes 1000 rows
// leaves a merge with nothing to copy, and it allocates next to nothing.
func TestMergeOfAWipedPartitionAllocatesLittle(t *testing.T) {
	data := wide(1000, 0, 1)
	wiped := part("k").WithDeletion(delAt(1, 1))
	m, err := repair.Merge(data, wiped)
	require.NoError(t, err)
	require.Empty(t, m.Rows)
	assert.Less(t, bytesPerMerge(t, data, wiped), uint64(1024))
}

// A merge of one row of four cells allocates for those cells, not for a
// block of 64 (5 KiB): a small partition's mismatch merges so, and so does
// each round of short-read protection, whose result keeps the block.
func TestMergeOfARowAllocatesForItsCells(t *testing.T) {
	older, newer := wide(1, 0, 1), wide(1, 0, 1)
	newer.Rows[0].Cells[0].Timestamp++
	assert.Less(t, bytesPerMerge(t, older, newer), uint64(1024))
}

// bytesPerMerge returns how many bytes a merge of vs allocates.
func bytesPerMerge(t *testing.T, vs ...replica.Partition) uint64 {
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		_, err := repair.Merge(vs...)
		require.NoError(t, err)
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs
}

// A reused Resolver allocates what it returns and nothing else: the merge
// (its rows and cells: its values are the versions'), the diffs slice, and
// each stale version's diff at its exact size (rows, cells and values: 3
// blocks more), however many rows.
func TestResolveAllocatesOnlyWhatItReturns(t *testing.T) {
	var r repair.Resolver
	resolve := func(vs ...replica.Partition) func() {
		return func() {
			_, _, err := r.Resolve(vs...)
			require.NoError(t, err)
		}
	}
	for _, n := range []int{10, 1000} {
		p := wide(n, 0, 1)
		lacking := wide(n, 0, 1)
		lacking.Rows = lacking.Rows[:n/2]
		assert.Equal(t, 3, allocs(resolve(p, p, p)), "%d rows, all up to date", n)
		assert.Equal(t, 3+3, allocs(resolve(p, lacking, p)), "%d rows, one stale", n)
		assert.Equal(t, 3+2*3, allocs(resolve(lacking, p, lacking)), "%d rows, two stale", n)
	}
}
