package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// report prints the rows as a table or JSON, and draws the plot if asked.
func report(rows []row, o options, w io.Writer) error {
	if o.plot != "" {
		if err := drawPlot(rows, o.plot); err != nil {
			return err
		}
	}
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	_, err := io.WriteString(w, renderRows(rows))
	if err == nil && o.plot != "" {
		_, err = fmt.Fprintf(w, "\nplot: %s\n", o.plot)
	}
	return err
}

var header = []string{"scenario", "policy", "reads", "p50", "p99", "p99.9", "max", "extra", "hedges", "wins", "suppressed", "mismatches", "repairs", "errors"}

// renderRows renders the rows with aligned columns; latencies in ms, extra load
// in percent of NEVER's replica reads.
func renderRows(rows []row) string {
	cells := [][]string{header}
	for _, r := range rows {
		cells = append(cells, []string{
			r.Scenario, r.Policy, fmt.Sprint(r.Reads),
			ms(r.P50), ms(r.P99), ms(r.P999), ms(r.Max),
			fmt.Sprintf("%+.1f%%", 100*r.ExtraLoad),
			fmt.Sprint(r.Hedges), fmt.Sprint(r.HedgeWins), fmt.Sprint(r.Suppressed),
			fmt.Sprint(r.Mismatches), fmt.Sprint(r.Repairs), fmt.Sprint(r.Errors),
		})
	}
	return align(cells) + "latencies in ms, failed reads included at the time they failed;\n" +
		"extra = speculative replica reads, as a share of the replica reads NEVER sends in the same scenario\n"
}

func ms(x float64) string { return fmt.Sprintf("%.1f", x) }

// align left-aligns the first two columns and right-aligns the rest.
func align(cells [][]string) string {
	widths := make([]int, len(cells[0]))
	for _, r := range cells {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	var b strings.Builder
	for _, r := range cells {
		var line strings.Builder
		for i, c := range r {
			if i < 2 {
				fmt.Fprintf(&line, "%-*s  ", widths[i], c)
			} else {
				fmt.Fprintf(&line, "%*s  ", widths[i], c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.String()
}
