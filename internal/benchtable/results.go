package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Results holds every value the benchmark output reported, by benchmark
// name, -cpu value and unit ("ns/op", "allocs/op", "B/table"…). Like
// any map, it is safe for concurrent reads but not for concurrent writes.
type Results map[key]map[string][]float64

type key struct {
	name string
	cpu  int
}

// cpuSuffix is the "-N" the testing package appends to a benchmark's name
// when GOMAXPROCS is N > 1.
var cpuSuffix = regexp.MustCompile(`^(.*)-(\d+)$`)

// Parse reads `go test -bench` output; lines that are not results are
// skipped. A name without a -N suffix ran at -cpu 1.
func Parse(out string) Results {
	rs := Results{}
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		k := key{name: strings.TrimPrefix(f[0], "Benchmark"), cpu: 1}
		if m := cpuSuffix.FindStringSubmatch(k.name); m != nil {
			k.name = m[1]
			k.cpu, _ = strconv.Atoi(m[2])
		}
		if rs[k] == nil {
			rs[k] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 { // after the name and the iteration count: value, unit
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				rs[k][f[i+1]] = append(rs[k][f[i+1]], v)
			}
		}
	}
	return rs
}

// Median returns the median of a benchmark's values in unit at cpu, and
// whether there were any.
func (rs Results) Median(name string, cpu int, unit string) (float64, bool) {
	vs := slices.Clone(rs[key{name, cpu}][unit])
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2], true
	}
	return (vs[n/2-1] + vs[n/2]) / 2, true
}

// ratioUnit is the custom metric of a benchmark that runs an operation and
// its reference side by side (BenchmarkBeside): the ratio of their times.
const ratioUnit = "ratio"

// ownUnits are the custom metrics the table shows in place of a time: sizes,
// and side-by-side ratios.
var ownUnits = []string{"B/table", "B/item", ratioUnit}

// unit is what a benchmark's row shows: the size or side-by-side ratio it
// reports, if any, or its time.
func (rs Results) unit(name string) string {
	for _, u := range ownUnits {
		if _, ok := rs.Median(name, 1, u); ok {
			return u
		}
	}
	return "ns/op"
}
