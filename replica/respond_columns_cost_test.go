package replica_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// Selecting a few columns of a row costs what it selects, not the row's
// width: beside a map of 100,000 entries, SELECT a, z answers about as fast
// as it does beside a map of 100, as the projection gallops over the
// entries it does not select. A binary search of the selection for each
// cell made it cost every entry: about 400x, where this allows 20x.
func TestSelectingColumnsBesideAWideMapCostsWhatItSelects(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("times reads")
	}
	cost := func(entries int) time.Duration {
		cells := []replica.Cell{replica.Live("a", "x", 1), replica.Live("z", "x", 1)}
		for i := range entries {
			cells = append(cells, replica.Live("m", "x", 1).WithPath(fmt.Sprintf("%08d", i)))
		}
		p := replica.NewPartition("k", replica.NewRow("r", cells...))
		cmd := replica.Command{Table: "t", Key: "k", NowInSec: 1000, Columns: []string{"a", "z"}}
		if resp, err := cmd.Respond(p); err != nil || len(resp.Partition.Rows[0].Cells) != 2 {
			t.Fatalf("%v, %v; want cells a and z", resp.Partition, err)
		}
		return fastest(200, func() { cmd.Respond(p) })
	}
	narrow, wide := cost(100), cost(100_000)
	t.Logf("beside 100,000 entries %v, beside 100 %v", wide, narrow)
	if wide > 20*narrow {
		t.Errorf("beside 100,000 entries %v, beside 100 %v: %.0fx, want at most 20x", wide, narrow, float64(wide)/float64(narrow))
	}
}

// Project, the reference of a selection, costs a binary search a cell:
// all 10,000 columns of a 10,000-cell row cost about 200x all 100 of a
// 100-cell row. A scan of the list for each cell made it 4,500x (184 ms),
// where this allows 1,000x.
func TestProjectingManyColumnsCostsABinarySearchACell(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("times projections")
	}
	cost := func(n, reps int) time.Duration {
		cells := make([]replica.Cell, n)
		columns := make([]string, n)
		for i := range cells {
			columns[i] = fmt.Sprintf("column%06d", i)
			cells[i] = replica.Live(columns[i], "x", 1)
		}
		p := replica.NewPartition("k", replica.NewRow("r", cells...))
		if got := p.Project(columns); !got.Equal(p) {
			t.Fatalf("%v; want all of %v", got, p)
		}
		return fastest(reps, func() { p.Project(columns) })
	}
	narrow, wide := cost(100, 100), cost(10_000, 5)
	t.Logf("10,000 columns %v, 100 columns %v", wide, narrow)
	if wide > 1000*narrow {
		t.Errorf("%.0fx, want at most 1,000x", float64(wide)/float64(narrow))
	}
}

// fastest returns the least time f took over 5 runs of reps calls each,
// so that another process on the machine does not decide the figure.
func fastest(reps int, f func()) time.Duration {
	best := time.Duration(1 << 62)
	for range 5 {
		start := time.Now()
		for range reps {
			f()
		}
		best = min(best, time.Since(start)/time.Duration(reps))
	}
	return best
}
