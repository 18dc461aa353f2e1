package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// limitTarget is a target on a benchmark's own figure: "≤ 20 ms", "≤ 24 KiB".
var limitTarget = regexp.MustCompile(`^≤ ([0-9.]+) (ns|µs|ms|KiB)$`)

// absoluteLimit parses a target on a benchmark's own figure, in the unit
// the benchmark reports; ok is false for any other target.
func absoluteLimit(target string) (limit float64, ok bool) {
	m := limitTarget.FindStringSubmatch(target)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v * unitScale(m[2]), err == nil
}

// unitScale is what one of a shown unit is in the unit benchmarks report:
// ns/op for a time (the table's timeUnits), bytes for a KiB.
func unitScale(name string) float64 {
	for _, u := range timeUnits {
		if u.name == name {
			return u.ns
		}
	}
	return 1024
}

// limitRounds writes, for each benchmark whose target is on its own figure
// (a row with a reference may have one too), the figure's range over the
// rounds and how many rounds meet the target: a median within it may hide
// rounds that are not.
func limitRounds(b *strings.Builder, rows [][]string, rs Results) {
	b.WriteString("figure per round (min–max; rounds meeting the target):\n")
	seen := map[string]bool{}
	for _, cols := range rows {
		name, target := cols[0], cols[6]
		unit := rs.unit(name)
		limit, ok := absoluteLimit(target)
		marked := [2]bool{ok, ok}
		if unit == ratioUnit { // a side-by-side ratio: its target is on the ratio
			limit, marked = ratioLimit(target)
			ok = marked[0] || marked[1]
		}
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		var parts []string
		for i, cpu := range []int{1, 2} {
			vs := rs[key{name, cpu}][unit]
			if len(vs) == 0 || !marked[i] {
				continue
			}
			met := 0
			for _, v := range vs {
				if unit == ratioUnit {
					v = math.Round(v*100) / 100 // as shown, as a ratio column's
				}
				if v <= limit {
					met++
				}
			}
			parts = append(parts, fmt.Sprintf("cpu %d %s – %s %d/%d", cpu,
				format(slices.Min(vs), unit), format(slices.Max(vs), unit), met, len(vs)))
		}
		fmt.Fprintf(b, "%s (%s): %s\n", name, target, strings.Join(parts, ", "))
	}
}
