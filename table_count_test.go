package readpath_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/readpath/readpath/coordinator"
)

// Adding a table and dropping it, and reading one table's metrics, allocate
// as much beside 4,000 tables that have served reads as beside 40: the
// table map is not copied on each addition (it was, 380 µs at 4,000), and
// TableMetrics builds no other table's metrics. BenchmarkAddTable and
// BenchmarkTableMetrics time them; this keeps them O(1) where a benchmark
// is not run.
func TestATableCostsTheSameBesideManyTables(t *testing.T) {
	few, many := servedTables(t, 40), servedTables(t, 4000)
	opts := few.TableOptions(tableName(0))
	ops := []struct {
		name string
		op   func(c *coordinator.Coordinator, i int)
	}{
		{"SetTableOptions then DropTable", func(c *coordinator.Coordinator, i int) {
			name := "added" + strconv.Itoa(i)
			if err := c.SetTableOptions(name, opts); err != nil {
				t.Fatal(err)
			}
			c.DropTable(name)
		}},
		{"TableMetrics", func(c *coordinator.Coordinator, i int) {
			if _, ok := c.TableMetrics(tableName(i % 40)); !ok {
				t.Fatalf("no %s", tableName(i%40))
			}
		}},
	}
	for _, o := range ops {
		f, m := bytesPerOp(few, o.op), bytesPerOp(many, o.op)
		t.Logf("%s: %.0f B beside 40 tables, %.0f B beside 4,000", o.name, f, m)
		// The map copied whole, or every table's metrics built, is
		// hundreds of KB beside 4,000 tables; the slack is for what the
		// runtime rounds differently at the two heap sizes.
		if m > 1.25*f+256 {
			t.Errorf("%s allocates %.0f B beside 4,000 tables, %.0f B beside 40: it grows with the tables", o.name, m, f)
		}
	}
}

// bytesPerOp returns how many bytes op allocates on c, averaged over 200
// runs after 20 to warm up.
func bytesPerOp(c *coordinator.Coordinator, op func(*coordinator.Coordinator, int)) float64 {
	const warm, runs = 20, 200
	for i := range warm {
		op(c, i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range runs {
		op(c, warm+i)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / runs
}
