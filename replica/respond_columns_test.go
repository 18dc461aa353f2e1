package replica_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// A column selection in any order, with repeats, answers as the reference
// does (Project, which takes any list), and Respond leaves the command's
// list as it was: the projector searches a sorted copy.
func TestRespondToUnsortedColumns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		cmd := commandGen(t, p)
		cmd.Columns = rapid.SliceOfN(smallString, 0, 5).Draw(t, "columns")
		given := slices.Clone(cmd.Columns)
		want := answerByReference(p, cmd)
		resp, err := cmd.Respond(p)
		require.Equal(t, given, cmd.Columns, "Respond reordered the command's columns")
		if want.overwhelmed {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, want.tombstones, resp.Tombstones, "tombstones")
		if !want.p.Equal(resp.Partition) {
			t.Fatalf("answer to %+v, columns %q\n got  %v\n want %v", cmd.Query, cmd.Columns, resp.Partition, want.p)
		}
	})
}

// wideRows returns n rows of cells in columns c0…c7.
func wideRows(n int) replica.Partition {
	rows := make([]replica.Row, n)
	for i := range rows {
		cells := make([]replica.Cell, 8)
		for c := range cells {
			cells[c] = replica.Live(fmt.Sprintf("c%d", c), "v", 10)
		}
		rows[i] = replica.NewRow(fmt.Sprintf("r%06d", i), cells...)
	}
	return replica.NewPartition("k", rows...)
}

// A limited read with a column selection projects only the rows its scan
// reaches, into a few arrays: it allocates as much over 100 rows as over
// 20,000, in either order. That is the projector and its rows; an array of
// cells when a row's selected cells do not lie together (else the answer
// shares them); and a sorted copy of a selection not in order.
func TestRespondWithColumnsAllocatesByTheAnswer(t *testing.T) {
	race.SkipPooledAllocs(t)
	small, large := wideRows(100), wideRows(20000)
	for _, tc := range []struct {
		cols   []string
		allocs float64
	}{
		{[]string{"c3"}, 2},
		{[]string{"c1", "c2", "c3", "c4", "c5", "c6"}, 2},
		{[]string{"c0", "c2", "c7"}, 3},
		{[]string{"c7", "c0", "c1", "c2", "c3", "c4", "c5"}, 4},
	} {
		for _, reversed := range []bool{false, true} {
			cmd := replica.Command{Key: "k", Columns: tc.cols, NowInSec: 100, GCBefore: 50, Query: replica.Query{Limit: 10, Reversed: reversed}}
			allocs := func(p replica.Partition) float64 {
				resp, err := cmd.Respond(p)
				require.NoError(t, err)
				require.Len(t, resp.Partition.Rows, 10)
				return testing.AllocsPerRun(20, func() { _, _ = cmd.Respond(p) })
			}
			assert.Equal(t, tc.allocs, allocs(small), "reversed %v, columns %q", reversed, tc.cols)
			assert.Equal(t, tc.allocs, allocs(large), "reversed %v, columns %q", reversed, tc.cols)
		}
	}
}

// A row holding more selected cells than the rows before it, in a complex
// column, outgrows the array the projector guessed for them: its cells move
// to the next array whole.
func TestRespondWithColumnsOutgrowingItsGuess(t *testing.T) {
	var rows []replica.Row
	for _, k := range []string{"r1", "r2", "r3"} {
		rows = append(rows, replica.NewRow(k, replica.Live("a", "v", 10), replica.Live("b", "v", 10), replica.Live("c", "v", 10)))
	}
	var many []replica.Cell
	for i := range 10 {
		many = append(many, replica.Live("a", "v", 10).WithPath(fmt.Sprint(i)))
	}
	rows = append(rows, replica.NewRow("r4", append(many, replica.Live("b", "v", 10), replica.Live("c", "v", 10))...))
	p := replica.NewPartition("k", rows...)
	cols := []string{"a", "c"}
	for _, q := range []replica.Query{{}, {Reversed: true}, {Limit: 4}} {
		resp, err := replica.Command{Key: "k", Columns: cols, NowInSec: 100, Query: q}.Respond(p)
		require.NoError(t, err)
		requireSamePartition(t, p.Project(cols), resp.Partition, "%+v", q)
	}
}
