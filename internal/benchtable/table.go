package main

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// header opens the README's benchmark table.
const header = "| benchmark | cpu 1 | cpu 2 |"

// Rebuild recomputes every row of the README's benchmark table from rs,
// and returns the README with the new table and the table alone.
func Rebuild(readme string, rs Results) (updated, table string, err error) {
	lines := strings.SplitAfter(readme, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, header) {
			start = i
			break
		}
	}
	if start < 0 || start+2 > len(lines) {
		return "", "", fmt.Errorf("no table starting with %q", header)
	}
	var b strings.Builder
	b.WriteString(lines[start])
	b.WriteString(lines[start+1]) // the alignment row
	end := start + 2
	for ; end < len(lines) && strings.HasPrefix(lines[end], "|"); end++ {
		row, err := rebuildRow(strings.TrimRight(lines[end], "\n"), rs)
		if err != nil {
			return "", "", fmt.Errorf("row %d: %w", end-start-1, err)
		}
		b.WriteString(row + "\n")
	}
	table = b.String()
	return strings.Join(lines[:start], "") + table + strings.Join(lines[end:], ""), table, nil
}

// rebuildRow recomputes a row: | name | cpu 1 | cpu 2 | allocs/op |
// reference and its figures | ratio | target |. Its name, its reference's
// name (the first word of that column) and its target are kept.
func rebuildRow(row string, rs Results) (string, error) {
	cols := strings.Split(strings.Trim(row, "|"), "|")
	if len(cols) != 7 {
		return "", fmt.Errorf("%q has %d columns, not 7", row, len(cols))
	}
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	name, ref, target := cols[0], cols[4], cols[6]
	unit := rs.unit(name)
	own, err := pair(rs, name, unit)
	if err != nil {
		return "", err
	}
	allocs := ""
	if unit == "ns/op" {
		a, ok := rs.Median(name, 1, "allocs/op")
		if !ok {
			return "", fmt.Errorf("%s: no allocs/op (run with -benchmem or b.ReportAllocs)", name)
		}
		allocs = fmt.Sprintf("%.0f", a)
	}
	refCol, ratio := "", ""
	if ref != "" {
		refName, _, _ := strings.Cut(ref, " ")
		theirs, err := pair(rs, refName, unit)
		if err != nil {
			return "", err
		}
		refCol = fmt.Sprintf("%s %s / %s", refName, format(theirs[0], unit), format(theirs[1], unit))
		ratio = ratios(own, theirs, target)
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |",
		name, format(own[0], unit), format(own[1], unit), allocs, refCol, ratio, target), nil
}

// pair returns a benchmark's medians at -cpu 1 and -cpu 2.
func pair(rs Results, name, unit string) ([2]float64, error) {
	var p [2]float64
	for i, cpu := range []int{1, 2} {
		v, ok := rs.Median(name, cpu, unit)
		if !ok {
			return p, fmt.Errorf("%s: no %s at -cpu %d", name, unit, cpu)
		}
		p[i] = v
	}
	return p, nil
}

// ratioTarget is a target on the ratio: "≤ 1.2×", maybe followed by a
// remark; "(cpu 2)" in it limits it to two cores.
var ratioTarget = regexp.MustCompile(`^≤ ([0-9.]+)×`)

// ratios renders own over theirs at both -cpu values, each marked ✓ or ✗
// against the target when the target is on the ratio. The comparison is
// on the ratio as shown, to two decimals.
func ratios(own, theirs [2]float64, target string) string {
	limit, marked := math.Inf(1), [2]bool{}
	if m := ratioTarget.FindStringSubmatch(target); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			limit, marked = v, [2]bool{!strings.Contains(target, "(cpu 2)"), true}
		}
	}
	var s [2]string
	for i := range s {
		r := math.Round(own[i]/theirs[i]*100) / 100
		s[i] = fmt.Sprintf("%.2f×", r)
		switch {
		case !marked[i]:
		case r <= limit:
			s[i] += " ✓"
		default:
			s[i] += " ✗"
		}
	}
	return s[0] + " / " + s[1]
}

// format renders a median: a time in ns, µs or ms, or a size in KiB.
func format(v float64, unit string) string {
	switch {
	case unit != "ns/op":
		return fmt.Sprintf("%.1f KiB", v/1024)
	case v < 1e3:
		return fmt.Sprintf("%.1f ns", v)
	case v < 1e6:
		return fmt.Sprintf("%.2f µs", v/1e3)
	}
	return fmt.Sprintf("%.2f ms", v/1e6)
}
