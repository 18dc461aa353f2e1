package repair_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// unionVersions are versions of n rows in all that each lack what others
// hold, as replicas that each missed other writes do.
func unionVersions(n int) map[string][]replica.Partition {
	byTurns := func(k int) []replica.Partition {
		rows := make([][]replica.Row, k)
		for j := range n {
			rows[j%k] = append(rows[j%k], replica.NewRow(genKey(j), replica.Live("a", "x", 1), replica.Live("b", "y", 1)))
		}
		vs := make([]replica.Partition, k)
		for i := range vs {
			vs[i] = replica.NewPartition("k", rows[i]...)
		}
		return vs
	}
	columnsApart := make([]replica.Partition, 2)
	for i := range columnsApart {
		rows := make([]replica.Row, n)
		for j := range rows {
			cells := make([]replica.Cell, 5)
			for c := range cells {
				cells[c] = replica.Live(fmt.Sprintf("c%d%d", i, c), "v", 1)
			}
			rows[j] = replica.NewRow(genKey(j), cells...)
		}
		columnsApart[i] = replica.NewPartition("k", rows...)
	}
	// The version of most rows holds the fewest cells: the other's add
	// cells to the rows it has.
	wideBeside := []replica.Partition{byTurns(1)[0], byTurns(2)[1]}
	for j := range wideBeside[1].Rows {
		wideBeside[1].Rows[j].Cells = append(wideBeside[1].Rows[j].Cells, replica.Live("c", "z", 1), replica.Live("d", "w", 1))
	}
	staticApart := byTurns(2)
	staticApart[0].Static = replica.Row{Cells: []replica.Cell{replica.Live("s1", "x", 1), replica.Live("s2", "y", 1)}}
	staticApart[1].Static = replica.Row{Cells: []replica.Cell{replica.Live("s3", "x", 1), replica.Live("s4", "y", 1), replica.Live("s5", "y", 1)}}
	return map[string][]replica.Partition{
		"rows by turns of two":   byTurns(2),
		"rows by turns of three": byTurns(3),
		"columns apart":          columnsApart,
		"wide beside long":       wideBeside,
		"static rows apart":      staticApart,
	}
}

// A merge of versions that each lack what the others hold is larger than
// the largest of them: SizeFor counts what each holds beyond it, so that
// the merge fits the Blocks SizeFor picks; a merge in new memory, sized by
// the same estimate, allocates its rows and its cells once each; and a
// second merge of the same versions builds where the first did, allocating
// nothing. Sized for the largest version alone, a merge in new memory grew
// its rows and cells, copying them, two to five times over.
func TestSizeForCountsWhatVersionsHoldBeyondTheLargest(t *testing.T) {
	for _, n := range []int{8, 100, 1000} {
		for name, vs := range unionVersions(n) {
			var r repair.Resolver
			var b repair.Blocks
			first, err := r.MergeValidIn(&b, vs...)
			require.NoError(t, err)
			requireSame(t, mustMerge(t, vs...), first, "%s, %d rows", name, n)
			built := len(first.Rows)*rowBytes + cellsOf(first)*cellBytes
			want := repair.SizeFor(vs...)
			require.GreaterOrEqual(t, want, built, "%s, %d rows: SizeFor below the merge", name, n)
			require.Less(t, want, 2*built, "%s, %d rows: SizeFor above twice the merge", name, n)

			require.LessOrEqual(t, testing.AllocsPerRun(10, func() { _, _ = r.MergeValidIn(nil, vs...) }), 2.0,
				"%s, %d rows: a merge in new memory grows its rows or cells", name, n)

			second, err := r.MergeValidIn(&b, vs...)
			require.NoError(t, err)
			require.Same(t, &first.Rows[0], &second.Rows[0], "%s, %d rows: rows not built in the Blocks", name, n)
			require.Zero(t, testing.AllocsPerRun(10, func() { _, _ = r.MergeValidIn(&b, vs...) }),
				"%s, %d rows: a merge in its own last Blocks allocates", name, n)
		}
	}
}

// Versions holding the same rows and cells add nothing to the largest:
// SizeFor of three copies is SizeFor of one.
func TestSizeForOfAgreeingVersionsIsOneVersions(t *testing.T) {
	vs := unionVersions(100)["rows by turns of two"][:1]
	require.Equal(t, repair.SizeFor(vs...), repair.SizeFor(vs[0], vs[0], vs[0]))
}

// cellsOf counts the cells of p's rows and static row.
func cellsOf(p replica.Partition) int {
	n := len(p.Static.Cells)
	for _, r := range p.Rows {
		n += len(r.Cells)
	}
	return n
}

const (
	rowBytes  = int(unsafe.Sizeof(replica.Row{}))
	cellBytes = int(unsafe.Sizeof(replica.Cell{}))
)
