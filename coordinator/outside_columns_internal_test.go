package coordinator

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// firstColumnOutside finds a cell's or a complex deletion's column missing
// from a sorted selection wherever it lies in the row, a collection's
// cells counted once, and passes a row whose columns are all selected.
func TestFirstColumnOutside(t *testing.T) {
	set := func(col string, paths ...string) []replica.Cell {
		var cells []replica.Cell
		for _, p := range paths {
			cells = append(cells, replica.Live(col, "v", 1).WithPath(p))
		}
		return cells
	}
	row := func(cells ...[]replica.Cell) replica.Row {
		var all []replica.Cell
		for _, c := range cells {
			all = append(all, c...)
		}
		return replica.NewRow("r", all...)
	}
	del := replica.DeletedAt(1, 1)
	for name, tc := range map[string]struct {
		columns []string
		row     replica.Row
		want    string // "" for none outside
	}{
		"all selected":                 {[]string{"a", "b", "m"}, row(set("a", "x"), set("m", "1", "2", "3")).WithComplexDeletion("m", del), ""},
		"the first cell":               {[]string{"b", "c"}, row(set("a", "x"), set("b", "x")), "a"},
		"a middle cell":                {[]string{"a", "c"}, row(set("a", "x"), set("b", "x"), set("c", "x")), "b"},
		"the last cell":                {[]string{"a", "b"}, row(set("a", "x"), set("b", "x"), set("c", "x")), "c"},
		"past every selected":          {[]string{"a"}, row(set("a", "1", "2"), set("z", "x")), "z"},
		"a collection's cells":         {[]string{"a", "m"}, row(set("m", "1", "2", "3"), set("n", "1")), "n"},
		"a complex deletion":           {[]string{"a", "m"}, row(set("a", "x")).WithComplexDeletion("m", del).WithComplexDeletion("q", del), "q"},
		"repeats in the selection":     {[]string{"a", "a", "b", "b"}, row(set("a", "x"), set("b", "x")), ""},
		"an empty selection":           {[]string{}, row(set("a", "x")), "a"},
		"no cells, an empty selection": {[]string{}, row(), ""},
	} {
		col, outside := firstColumnOutside(tc.columns, &tc.row)
		assert.Equal(t, tc.want != "", outside, name)
		assert.Equal(t, tc.want, col, name)
	}

	// The empty column name, valid in a row, is a column like any other, in
	// the first cell too: a selection without it does not hold it.
	first := row(set("", "x"), set("a", "x"))
	col, outside := firstColumnOutside([]string{"a"}, &first)
	assert.True(t, outside, "a first cell of the empty column name")
	assert.Empty(t, col)
}

// sortedColumns keeps a sorted selection, the caller's own slice, and
// sorts a copy of any other, leaving the caller's as it was.
func TestSortedColumns(t *testing.T) {
	sorted := []string{"a", "b", "c"}
	assert.Same(t, &sorted[0], &sortedColumns(sorted)[0])
	mine := []string{"c", "a", "b"}
	assert.Equal(t, []string{"a", "b", "c"}, sortedColumns(mine))
	assert.Equal(t, []string{"c", "a", "b"}, mine)
	assert.Nil(t, sortedColumns(nil), "nil selects every column")
	assert.NotNil(t, sortedColumns([]string{}), "empty selects none")
}
