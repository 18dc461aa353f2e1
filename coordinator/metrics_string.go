package coordinator

import (
	"fmt"
	"strings"
	"time"

	"github.com/readpath/readpath/consistency"
)

// String renders the metrics as a table: one row per metric, one column
// for the total and one per table; then a table of the replicas.
func (m Metrics) String() string {
	cols := append([]TableMetrics{m.Total}, m.Tables...)
	var rows [][]string
	add := func(name string, cell func(TableMetrics) string) {
		r := []string{name}
		for _, c := range cols {
			r = append(r, cell(c))
		}
		rows = append(rows, r)
	}
	add("", func(t TableMetrics) string { return orText(t.Table, "total") })
	for _, l := range consistency.Levels() {
		if m.Total.ReadsByLevel[l] > 0 {
			add("reads at "+l.String(), func(t TableMetrics) string { return fmt.Sprint(t.ReadsByLevel[l]) })
		}
	}
	for _, q := range latencyRows {
		add(q.name, func(t TableMetrics) string { return q.get(t.Latency).Round(time.Microsecond).String() })
	}
	add("threshold", thresholdText)
	for i, name := range counterNames {
		add(name, func(t TableMetrics) string { return fmt.Sprint(*t.counterFields()[i]) })
	}
	if len(m.Replicas) == 0 {
		return renderTable(rows)
	}
	return renderTable(rows) + "\n" + replicasString(m.Replicas)
}

func orText(s, ifEmpty string) string {
	if s == "" {
		return ifEmpty
	}
	return s
}

var latencyRows = []struct {
	name string
	get  func(LatencySummary) time.Duration
}{
	{"latency mean", func(l LatencySummary) time.Duration { return l.Mean }},
	{"latency p50", func(l LatencySummary) time.Duration { return l.P50 }},
	{"latency p99", func(l LatencySummary) time.Duration { return l.P99 }},
	{"latency p99.9", func(l LatencySummary) time.Duration { return l.P999 }},
	{"latency max", func(l LatencySummary) time.Duration { return l.Max }},
}

func thresholdText(t TableMetrics) string {
	switch {
	case t.Table == "":
		return "-"
	case !t.Speculating:
		return "never"
	}
	return t.Threshold.Round(time.Microsecond).String()
}

// renderTable left-aligns the first column and right-aligns the others.
func renderTable(rows [][]string) string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], len(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s", widths[0], r[0])
		for i, cell := range r[1:] {
			fmt.Fprintf(&b, "  %*s", widths[i+1], cell)
		}
		b.WriteString("\n")
	}
	return b.String()
}
