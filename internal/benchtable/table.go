package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// header opens the README's benchmark table.
const header = "| benchmark | cpu 1 | cpu 2 |"

// Rebuild recomputes every row of the README's benchmark table from rs,
// and returns the README with the new table and the table alone.
func Rebuild(readme string, rs Results) (updated, table string, err error) {
	lines := strings.SplitAfter(readme, "\n")
	start, end, err := findTable(lines)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString(lines[start])
	b.WriteString(lines[start+1]) // the alignment row
	for i := start + 2; i < end; i++ {
		row, err := rebuildRow(lines[i], rs)
		if err != nil {
			return "", "", fmt.Errorf("row %d: %w", i-start-1, err)
		}
		b.WriteString(row + "\n")
	}
	table = b.String()
	return strings.Join(lines[:start], "") + table + strings.Join(lines[end:], ""), table, nil
}

// findTable returns where the benchmark table's lines start (its header)
// and end (the first line after its last row).
func findTable(lines []string) (start, end int, err error) {
	start = slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, header) })
	if start < 0 || start+2 > len(lines) {
		return 0, 0, fmt.Errorf("no table starting with %q", header)
	}
	end = start + 2
	for end < len(lines) && strings.HasPrefix(lines[end], "|") {
		end++
	}
	return start, end, nil
}

// tableRows returns the columns of each row of the README's benchmark
// table.
func tableRows(readme string) ([][]string, error) {
	lines := strings.SplitAfter(readme, "\n")
	start, end, err := findTable(lines)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i := start + 2; i < end; i++ {
		cols, err := splitRow(lines[i])
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i-start-1, err)
		}
		rows = append(rows, cols)
	}
	return rows, nil
}

// splitRow returns a row's seven columns, trimmed: | name | cpu 1 | cpu 2
// | allocs/op | reference and its figures | ratio | target |.
func splitRow(row string) ([]string, error) {
	row = strings.TrimRight(row, "\n")
	cols := strings.Split(strings.Trim(row, "|"), "|")
	if len(cols) != 7 {
		return nil, fmt.Errorf("%q has %d columns, not 7", row, len(cols))
	}
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	return cols, nil
}

// rebuildRow recomputes a row. Its name, its reference's name (the first
// word of that column) and its target are kept.
func rebuildRow(row string, rs Results) (string, error) {
	cols, err := splitRow(row)
	if err != nil {
		return "", err
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
		// A median of whole counts may end in .5: "%.0f" showed 0.5 as 0.
		allocs = strconv.FormatFloat(a, 'f', -1, 64)
	}
	cells := [2]string{format(own[0], unit), format(own[1], unit)}
	if unit == ratioUnit {
		cells = markedRatios(own, target)
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
		name, cells[0], cells[1], allocs, refCol, ratio, target), nil
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
// remark.
var ratioTarget = regexp.MustCompile(`^≤ ([0-9.]+)×`)

// ratios renders own over theirs at both -cpu values, each marked ✓ or ✗
// against the target when the target is on the ratio. The comparison is
// on the ratio as shown, to two decimals.
func ratios(own, theirs [2]float64, target string) string {
	s := markedRatios([2]float64{own[0] / theirs[0], own[1] / theirs[1]}, target)
	return s[0] + " / " + s[1]
}

// markedRatios renders two ratios, to two decimals, each marked ✓ or ✗
// against the target when the target is on the ratio at its -cpu value.
func markedRatios(rs [2]float64, target string) [2]string {
	limit, marked := ratioLimit(target)
	var s [2]string
	for i := range s {
		r := math.Round(rs[i]*100) / 100
		s[i] = fmt.Sprintf("%.2f×", r)
		switch {
		case !marked[i]:
		case r <= limit:
			s[i] += " ✓"
		default:
			s[i] += " ✗"
		}
	}
	return s
}

// shownRatio is own over theirs as the table shows it, to two decimals:
// the figure a target is checked against.
func shownRatio(own, theirs float64) float64 { return math.Round(own/theirs*100) / 100 }

// format renders a median: a time in ns, µs or ms, a size in KiB, or a
// side-by-side ratio.
func format(v float64, unit string) string {
	if unit == ratioUnit {
		return fmt.Sprintf("%.2f×", math.Round(v*100)/100) // as a ratio column shows it
	}
	if unit != "ns/op" {
		return fmt.Sprintf("%.1f KiB", v/1024)
	}
	return formatTime(v)
}

// timeUnits are the units a time is shown in, with their precision.
var timeUnits = []struct {
	ns   float64
	prec int
	name string
}{{1, 1, "ns"}, {1e3, 2, "µs"}, {1e6, 2, "ms"}}

// formatTime shows a time in ns in the smallest unit in which it stays
// under 1000 once rounded: 999.96 ns is 1.00 µs, not 1000.0 ns.
func formatTime(v float64) string {
	var s string
	for _, u := range timeUnits {
		s = strconv.FormatFloat(v/u.ns, 'f', u.prec, 64) + " " + u.name
		if f, _ := strconv.ParseFloat(s[:strings.IndexByte(s, ' ')], 64); f < 1e3 {
			break
		}
	}
	return s
}
