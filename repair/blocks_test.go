package repair_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// ResolveIn and ResolveValidIn return what Resolve does, whatever the
// partitions one Blocks held before: a merge that reuses memory an
// earlier one wrote must not show any of it.
func TestResolveInIsResolve(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks // one for every case: each merge builds in the last one's memory
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		merged, diffs, err := r.ResolveIn(&b, vs...)
		if err != nil {
			t.Fatalf("ResolveIn of valid versions: %v", err)
		}
		requireResolved(t, vs, merged, diffs)
		merged, diffs, err = r.ResolveValidIn(&b, vs...)
		if err != nil {
			t.Fatalf("ResolveValidIn of valid versions: %v", err)
		}
		requireResolved(t, vs, merged, diffs)
	})
}

// MergeIn and MergeValidIn return what Merge does, whatever the partitions
// one Blocks held before, and share it with ResolveIn: the one Blocks goes
// from either to the other.
func TestMergeInIsMerge(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		want := merge(t, vs...)
		merged, err := r.MergeIn(&b, vs...)
		if err != nil {
			t.Fatalf("MergeIn of valid versions: %v", err)
		}
		requireEqual(t, "MergeIn", want, merged)
		if _, _, err := r.ResolveIn(&b, genVersions(t)...); err != nil {
			t.Fatalf("ResolveIn of valid versions: %v", err)
		}
		merged, err = r.MergeValidIn(&b, vs...)
		if err != nil {
			t.Fatalf("MergeValidIn of valid versions: %v", err)
		}
		requireEqual(t, "MergeValidIn", want, merged)
	})
}

// blockVersions returns two versions of n rows of three cells that
// disagree on every row, so that each lacks a cell of the other's.
func blockVersions(n int) []replica.Partition {
	vs := make([]replica.Partition, 2)
	for i := range vs {
		rows := make([]replica.Row, n)
		for j := range rows {
			rows[j] = replica.NewRow(genKey(j), replica.Live("a", "x", int64(1+i)), replica.Live("b", "y", int64(2-i)), replica.Live("c", "z", 1))
		}
		vs[i] = replica.NewPartition("k", rows...)
	}
	return vs
}

func genKey(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

// A second merge of the same size builds in the memory of the first: its
// rows and cells are where the first one's were, and it allocates neither.
func TestResolveInReusesTheLastMergesMemory(t *testing.T) {
	vs := blockVersions(100)
	var r repair.Resolver
	var b repair.Blocks
	first, _, err := r.ResolveIn(&b, vs...)
	require.NoError(t, err)
	rows, cells := &first.Rows[0], &first.Rows[0].Cells[0]
	second, _, err := r.ResolveIn(&b, vs...)
	require.NoError(t, err)
	require.Same(t, rows, &second.Rows[0], "the second merge's rows are not in the first's block")
	require.Same(t, cells, &second.Rows[0].Cells[0], "the second merge's cells are not in the first's block")
	requireSame(t, mustMerge(t, vs...), second, "merge in reused memory")

	fresh := testing.AllocsPerRun(20, func() { _, _, _ = r.Resolve(vs...) })
	reused := testing.AllocsPerRun(20, func() { _, _, _ = r.ResolveIn(&b, vs...) })
	require.LessOrEqual(t, reused, fresh-2, "ResolveIn allocates its rows and cells anew")

	third, err := r.MergeIn(&b, vs...)
	require.NoError(t, err)
	require.Same(t, rows, &third.Rows[0], "MergeIn's rows are not in the blocks")
	require.Same(t, cells, &third.Rows[0].Cells[0], "MergeIn's cells are not in the blocks")
	require.Zero(t, testing.AllocsPerRun(20, func() { _, _ = r.MergeValidIn(&b, vs...) }), "MergeValidIn allocates")
}

// A fold through one Blocks, each merge given the last as a version, is
// right: a merge that reads a partition built in its Blocks builds in new
// memory instead of over what it reads (found by review: row 50 of four
// 50-row versions took a cell of the wrong version).
func TestAFoldThroughOneBlocksIsMerge(t *testing.T) {
	vs := make([]replica.Partition, 4)
	for v := range vs {
		rows := make([]replica.Row, 50)
		for i := range rows {
			ts := int64(v + 1)
			rows[i] = replica.NewRow(genKey(int(ts)*7+i), replica.Live("a", fmt.Sprint("a", ts), ts), replica.Live("b", fmt.Sprint("b", ts), 10-ts))
		}
		vs[v] = replica.NewPartition("k", rows...)
	}
	want := mustMerge(t, vs...)
	var r repair.Resolver
	var b repair.Blocks
	acc := vs[0]
	for _, v := range vs[1:] {
		var err error
		acc, _, err = r.ResolveIn(&b, acc, v)
		require.NoError(t, err)
	}
	requireSame(t, want, acc, "fold through one Blocks")
	acc = vs[0]
	for _, v := range vs[1:] {
		var err error
		acc, err = r.MergeIn(&b, acc, v)
		require.NoError(t, err)
	}
	requireSame(t, want, acc, "MergeIn fold through one Blocks")
}

// A fold of static rows through one Blocks is right too: the static row's
// cells are in the Blocks as well, and a merge writing there would overwrite
// the earlier merge's before it read them.
func TestAFoldOfStaticRowsThroughOneBlocksIsMerge(t *testing.T) {
	static := func(columns ...string) replica.Partition {
		p := replica.NewPartition("k")
		for _, c := range columns {
			p.Static.Cells = append(p.Static.Cells, replica.Live(c, "v-"+c, 1))
		}
		return p
	}
	var r repair.Resolver
	var b repair.Blocks
	acc, err := r.MergeIn(&b, static("b", "d"))
	require.NoError(t, err)
	got, err := r.MergeIn(&b, acc, static("a", "c"))
	require.NoError(t, err)
	requireSame(t, static("a", "b", "c", "d"), got, "static fold through one Blocks")
}

// A block far larger than a merge needs is left alone: the small partition
// would keep all of it alive.
func TestResolveInLeavesAnOversizedBlock(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks
	big, _, err := r.ResolveIn(&b, blockVersions(1000)...)
	require.NoError(t, err)
	bigSize := b.Size()
	small, _, err := r.ResolveIn(&b, blockVersions(3)...)
	require.NoError(t, err)
	require.NotSame(t, &big.Rows[0], &small.Rows[0], "three rows built in a block of a thousand")
	require.NotSame(t, &big.Rows[0].Cells[0], &small.Rows[0].Cells[0], "nine cells built in a block of three thousand")
	require.Less(t, b.Size(), bigSize/10, "the Blocks kept the large block")
	requireSame(t, mustMerge(t, blockVersions(3)...), small, "small merge")
}

// The diffs ResolveIn returns are new memory: writing to them changes
// neither the merge nor what the Blocks hold for the next one.
func TestResolveInDiffsShareNoMemoryWithTheBlocks(t *testing.T) {
	vs := blockVersions(10)
	var r repair.Resolver
	var b repair.Blocks
	_, _, err := r.ResolveIn(&b, vs...)
	require.NoError(t, err)
	merged, diffs, err := r.ResolveIn(&b, vs...)
	require.NoError(t, err)
	want := merged.Clone()
	for _, d := range diffs {
		for i := range d.Rows {
			for j := range d.Rows[i].Cells {
				d.Rows[i].Cells[j] = replica.Cell{Column: "zz", Timestamp: 99}
			}
			d.Rows[i] = replica.Row{Clustering: "zz"}
		}
	}
	requireSame(t, want, merged, "merge after its diffs were overwritten")
}
