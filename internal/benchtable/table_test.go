package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// out is the output of two rounds of the README's loop, one -cpu value
// per process, with the lines around the results that the tool skips.
const out = `goos: linux
goarch: amd64
pkg: github.com/readpath/readpath
BenchmarkRead        	  100	      3000 ns/op	     464 B/op	       5 allocs/op
BenchmarkRef         	  100	      1000 ns/op	     656 B/op	       4 allocs/op
BenchmarkTable       	    7	 199681249 ns/op	      6211 B/table
BenchmarkLocate/impl=cached 	  100	      31.9 ns/op	       0 B/op	       0 allocs/op
PASS
BenchmarkRead-2      	  100	      4000 ns/op	     464 B/op	       5 allocs/op
BenchmarkRef-2       	  100	      2000 ns/op	     656 B/op	       4 allocs/op
BenchmarkTable-2     	    7	 199681249 ns/op	      6211 B/table
BenchmarkLocate/impl=cached-2 	  100	      32.3 ns/op	       0 B/op	       0 allocs/op
ok  	github.com/readpath/readpath	12.3s
BenchmarkRead        	  100	      3200 ns/op	     464 B/op	       5 allocs/op
BenchmarkRef         	  100	      1100 ns/op	     656 B/op	       4 allocs/op
BenchmarkRead-2      	  100	      4400 ns/op	     464 B/op	       5 allocs/op
BenchmarkRef-2       	  100	      2200 ns/op	     656 B/op	       4 allocs/op
`

func TestParseKeepsEachCPUAndUnitApart(t *testing.T) {
	rs := Parse(out)
	assert.Equal(t, []float64{3000, 3200}, rs[key{"Read", 1}]["ns/op"])
	assert.Equal(t, []float64{4000, 4400}, rs[key{"Read", 2}]["ns/op"])
	assert.Equal(t, []float64{6211}, rs[key{"Table", 2}]["B/table"])
	assert.Equal(t, []float64{32.3}, rs[key{"Locate/impl=cached", 2}]["ns/op"])
	assert.Len(t, rs, 8, "only result lines")
}

func TestMedian(t *testing.T) {
	rs := Results{key{"x", 1}: {"ns/op": {5, 1, 3}}, key{"x", 2}: {"ns/op": {4, 1, 3, 2}}}
	m, ok := rs.Median("x", 1, "ns/op")
	assert.True(t, ok)
	assert.Equal(t, 3.0, m)
	m, _ = rs.Median("x", 2, "ns/op")
	assert.Equal(t, 2.5, m)
	_, ok = rs.Median("x", 1, "allocs/op")
	assert.False(t, ok)
	assert.Equal(t, []float64{5, 1, 3}, rs[key{"x", 1}]["ns/op"], "the runs are not reordered")
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{0.94, "ns/op", "0.9 ns"},
		{851.5, "ns/op", "851.5 ns"},
		{999.94, "ns/op", "999.9 ns"},
		{1000, "ns/op", "1.00 µs"},
		{814080, "ns/op", "814.08 µs"},
		{8.951e6, "ns/op", "8.95 ms"},
		{6211, "B/table", "6.1 KiB"},
	} {
		assert.Equal(t, c.want, format(c.v, c.unit), "%v %s", c.v, c.unit)
	}
}

func TestRatiosAreMarkedAgainstTheirTarget(t *testing.T) {
	own, ref := [2]float64{3000, 4000}, [2]float64{1000, 2000}
	assert.Equal(t, "3.00× ✓ / 2.00× ✓", ratios(own, ref, "≤ 3×"))
	assert.Equal(t, "3.00× ✗ / 2.00× ✓", ratios(own, ref, "≤ 2.5× (linear)"))
	assert.Equal(t, "3.00× / 2.00× ✓", ratios(own, ref, "≤ 2× in parallel (cpu 2)"), "one core is not marked")
	assert.Equal(t, "3.00× / 2.00×", ratios(own, ref, "executor overhead"))
	assert.Equal(t, "3.00× / 2.00×", ratios(own, ref, "was 55× (O(n²))"))
	assert.Equal(t, "11.00× ✓ / 11.01× ✗", ratios([2]float64{11.004, 11.006}, [2]float64{1, 1}, "≤ 11×"),
		"the ratio as shown decides")
}

const readme = `# title

text before

| benchmark | cpu 1 | cpu 2 | allocs/op | reference (cpu 1 / cpu 2) | ratio (cpu 1 / cpu 2) | target |
|---|---|---|---|---|---|---|
| Read | 1 ns | 1 ns | 9 | Ref 1 ns / 1 ns | 1.00× / 1.00× | ≤ 2× |
| Read | 1 ns | 1 ns | 9 |  |  | 0 allocs |
| Table | 1 KiB | 1 KiB |  |  |  | ≤ 24 KiB |

text after
`

func TestRebuildRecomputesEveryRowAndKeepsTheRest(t *testing.T) {
	updated, table, err := Rebuild(readme, Parse(out))
	require.NoError(t, err)
	want := `| benchmark | cpu 1 | cpu 2 | allocs/op | reference (cpu 1 / cpu 2) | ratio (cpu 1 / cpu 2) | target |
|---|---|---|---|---|---|---|
| Read | 3.10 µs | 4.20 µs | 5 | Ref 1.05 µs / 2.10 µs | 2.95× ✗ / 2.00× ✓ | ≤ 2× |
| Read | 3.10 µs | 4.20 µs | 5 |  |  | 0 allocs |
| Table | 6.1 KiB | 6.1 KiB |  |  |  | ≤ 24 KiB |
`
	assert.Equal(t, want, table)
	assert.Equal(t, "# title\n\ntext before\n\n"+want+"\ntext after\n", updated)
}

func TestRebuildNamesWhatIsMissing(t *testing.T) {
	rs := Parse(out)
	delete(rs, key{"Ref", 2})
	_, _, err := Rebuild(readme, rs)
	assert.ErrorContains(t, err, "Ref: no ns/op at -cpu 2")

	_, _, err = Rebuild("# no table\n", rs)
	assert.ErrorContains(t, err, "no table")

	_, _, err = Rebuild(readme+"\n"+"| benchmark | cpu 1 | cpu 2 |\n|---|\n| Read | 1 |\n", Parse(out))
	require.NoError(t, err, "only the first table is rebuilt")

	_, _, err = Rebuild("| benchmark | cpu 1 | cpu 2 | x |\n|---|\n| Read | 1 |\n", Parse(out))
	assert.ErrorContains(t, err, "not 7")
}

func TestRunWritesTheTableIntoTheReadme(t *testing.T) {
	dir := t.TempDir()
	bench, md := filepath.Join(dir, "new.txt"), filepath.Join(dir, "README.md")
	require.NoError(t, os.WriteFile(bench, []byte(out), 0o644))
	require.NoError(t, os.WriteFile(md, []byte(readme), 0o644))

	require.NoError(t, run(bench, md, printTable))
	got, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.Equal(t, readme, string(got), "printing leaves the README alone")

	require.NoError(t, run(bench, md, writeTable))
	got, err = os.ReadFile(md)
	require.NoError(t, err)
	want, _, err := Rebuild(readme, Parse(out))
	require.NoError(t, err)
	assert.Equal(t, want, string(got))

	assert.Error(t, run(filepath.Join(dir, "absent.txt"), md, printTable))
}
