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

// roundUnit holds, beside a benchmark's values, the round of each line:
// how many processes of its package ran at its -cpu value before the one
// that printed it (each process begins with a "goos:" line; without any,
// the line's position among the benchmark's). A benchmark that failed in
// a round has no line there, so the position of a value is not its round.
// No real unit begins with a NUL byte.
const roundUnit = "\x00round"

// Parse reads `go test -bench` output; lines that are not results are
// skipped. A name without a -N suffix ran at -cpu 1.
func Parse(out string) Results {
	rs := Results{}
	type stream struct {
		pkg string
		cpu int
	}
	procs := map[stream]int{} // processes begun, by package and -cpu
	pkg, round, headed := "", -1, false
	for line := range strings.Lines(out) {
		switch {
		case strings.HasPrefix(line, "goos:"):
			pkg, round, headed = "", -1, true
		case strings.HasPrefix(line, "pkg:"):
			pkg = strings.TrimSpace(strings.TrimPrefix(line, "pkg:"))
		}
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
		switch {
		case !headed:
			rs[k][roundUnit] = append(rs[k][roundUnit], float64(len(rs[k][roundUnit])))
		default:
			if round < 0 { // the process's first result: its -cpu is known now
				round = procs[stream{pkg, k.cpu}]
				procs[stream{pkg, k.cpu}]++
			}
			rs[k][roundUnit] = append(rs[k][roundUnit], float64(round))
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
