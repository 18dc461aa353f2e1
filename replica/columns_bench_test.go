package replica_test

import (
	"fmt"
	"testing"

	"github.com/readpath/readpath/replica"
)

// A column selection costs what it selects: two columns beside a map of
// 100,000 entries (BenchmarkRespondTwoColumnsBesideAMapOf100000) cost about
// what they cost beside 100 (its reference, ...Of100); a binary search of the
// selection for each cell made it some 700× (1.87 ms).
func BenchmarkRespondTwoColumnsBesideAMapOf100(b *testing.B)    { benchTwoColumns(b, 100) }
func BenchmarkRespondTwoColumnsBesideAMapOf100000(b *testing.B) { benchTwoColumns(b, 100_000) }

func benchTwoColumns(b *testing.B, entries int) {
	cells := []replica.Cell{replica.Live("a", "x", 1), replica.Live("z", "x", 1)}
	for i := range entries {
		cells = append(cells, replica.Live("m", "x", 1).WithPath(fmt.Sprintf("%08d", i)))
	}
	p := replica.NewPartition("k", replica.NewRow("r", cells...))
	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 1000, Columns: []string{"a", "z"}}
	if resp, err := cmd.Respond(p); err != nil || len(resp.Partition.Rows[0].Cells) != 2 {
		b.Fatalf("%v, %v; want cells a and z", resp.Partition, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		cmd.Respond(p)
	}
}

// Partition.Project costs a binary search a cell: every column of a
// 10,000-column row (BenchmarkProjectAllOf10000Columns) costs about 100×
// every column of a 100-column row (its reference, ...Of100Columns) times
// log2(10,000)/log2(100); a scan of the selection for each cell made it
// some 4,500× (184 ms).
func BenchmarkProjectAllOf100Columns(b *testing.B)   { benchProjectAll(b, 100) }
func BenchmarkProjectAllOf10000Columns(b *testing.B) { benchProjectAll(b, 10_000) }

func benchProjectAll(b *testing.B, n int) {
	cells := make([]replica.Cell, n)
	columns := make([]string, n)
	for i := range cells {
		columns[i] = fmt.Sprintf("column%06d", i)
		cells[i] = replica.Live(columns[i], "x", 1)
	}
	p := replica.NewPartition("k", replica.NewRow("r", cells...))
	if got := p.Project(columns); !got.Equal(p) {
		b.Fatalf("%v; want all of %v", got, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Project(columns)
	}
}
