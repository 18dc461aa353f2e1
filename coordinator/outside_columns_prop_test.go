package coordinator

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// A correct replica's answer (replica.Command.Respond) to a read's column
// selection, sorted as the read sorts it, is never refused by checkRows,
// whatever the columns (static, regular, collections and their complex
// deletions, tombstones) and the selection (repeats, empty, unsorted); and
// the answer to every column is refused exactly when it holds one the
// selection lacks.
func TestRespondedColumnsAreTheSelected(t *testing.T) {
	columns := []string{"a", "b", "m", "n", "s", "t"}
	rapid.Check(t, func(t *rapid.T) {
		cells := func(label string) []replica.Cell {
			var out []replica.Cell
			for _, col := range rapid.SliceOfDistinct(rapid.SampledFrom(columns), rapid.ID).Draw(t, label) {
				if col == "m" || col == "n" { // collections
					for _, path := range rapid.SliceOfDistinct(rapid.SampledFrom([]string{"1", "2", "3"}), rapid.ID).Draw(t, label+col) {
						out = append(out, replica.Live(col, "v", 5).WithPath(path))
					}
					continue
				}
				if rapid.Bool().Draw(t, label+col+"dead") {
					out = append(out, replica.Tombstone(col, 5, 50))
				} else {
					out = append(out, replica.Live(col, "v", 5))
				}
			}
			slices.SortFunc(out, func(x, y replica.Cell) int {
				return cmp.Or(strings.Compare(x.Column, y.Column), strings.Compare(x.Path, y.Path))
			})
			return out
		}
		p := replica.Partition{Key: "k"}
		p.Static = replica.NewRow("", cells("static")...)
		for _, ck := range []string{"r1", "r2", "r3"} {
			r := replica.NewRow(ck, cells(ck)...)
			if rapid.Bool().Draw(t, ck+"cd") {
				r = r.WithComplexDeletion(rapid.SampledFrom([]string{"m", "n"}).Draw(t, ck+"cdcol"), replica.DeletedAt(4, 40))
			}
			if !r.IsEmpty() {
				p.Rows = append(p.Rows, r)
			}
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		sel := rapid.SliceOf(rapid.SampledFrom(append(columns, "x"))).Draw(t, "selection")
		if sel == nil {
			sel = []string{}
		}
		cmd := replica.Command{Table: "t", Key: "k", NowInSec: 100, GCBefore: 0, Columns: sortedColumns(sel)}
		resp, err := cmd.Respond(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkRows(&cmd, &resp.Partition, false); err != nil {
			t.Fatalf("selection %q over %v: a correct answer %v refused: %v", sel, p, resp.Partition, err)
		}

		all := replica.Command{Table: "t", Key: "k", NowInSec: 100}
		whole, err := all.Respond(p)
		if err != nil {
			t.Fatal(err)
		}
		unselected := false
		for _, r := range append([]replica.Row{whole.Partition.Static}, whole.Partition.Rows...) {
			for _, c := range r.Cells {
				unselected = unselected || !slices.Contains(sel, c.Column)
			}
			for _, cd := range r.ComplexDeletions {
				unselected = unselected || !slices.Contains(sel, cd.Column)
			}
		}
		if err := checkRows(&cmd, &whole.Partition, false); (err != nil) != unselected {
			t.Fatalf("selection %q, the whole answer %v: refused %v, holding an unselected column %v", sel, whole.Partition, err, unselected)
		}
	})
}
