package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

var header = []string{"scenario", "policy", "reads", "p50", "p99", "p99.9", "max", "p50/ideal", "p99/ideal",
	"extra", "hedges", "wins", "suppressed", "mismatches", "repairs", "errors", "late"}

// fewLatencies is the count below which a p99.9 is no percentile: the
// largest latency, or the one next to it. Its rank, round(0.999 n), is n-1
// up to 1,500 latencies (n-2 from 1,501): the full run's fan-out rows, of
// 1,000 requests, rest on their next-to-largest too.
const fewLatencies = 1501

// renderRows renders the rows with aligned columns, and a footer that
// explains them and warns of rows the machine's load makes untrustworthy.
func renderRows(rows []row) string {
	cells := [][]string{header}
	for _, r := range rows {
		cells = append(cells, cellsOf(r))
	}
	return align(cells) + footer(rows)
}

func cellsOf(r row) []string {
	reads := fmt.Sprint(r.Reads)
	if r.Latencies != r.Reads {
		reads = fmt.Sprintf("%dx%d", r.Latencies, r.Reads/max(1, r.Latencies))
	}
	p999 := ms(r.P999)
	if r.Latencies < fewLatencies {
		p999 += "*"
	}
	late := ms(r.Timing.LateP99)
	if !r.Trustworthy {
		late += "!"
	}
	return []string{
		r.Scenario, r.Policy, reads, ms(r.P50), ms(r.P99), p999, ms(r.Max),
		idealCell(r.P50VsIdeal, r.Ideal, p50Range), idealCell(r.P99VsIdeal, r.Ideal, p99Range), fmt.Sprintf("%+.1f%%", 100*r.ExtraLoad),
		fmt.Sprint(r.Hedges), fmt.Sprint(r.HedgeWins), fmt.Sprint(r.Suppressed),
		fmt.Sprint(r.Mismatches), fmt.Sprint(r.Repairs), fmt.Sprint(r.Errors), late,
	}
}

func ms(x float64) string { return fmt.Sprintf("%.1f", x) }

// times prints a ratio to the ideal, or a dash without one.
func times(x *float64) string {
	if x == nil {
		return "–"
	}
	return fmt.Sprintf("%.2f", *x)
}

// idealCell prints a ratio to the ideal (see times), marked ~ where the
// ideal's percentile sits at a gap in its latencies (see gapped).
func idealCell(x *float64, ideal *idealFigures, pick func(*idealFigures) [2]float64) string {
	if x != nil && ideal != nil && gapped(pick(ideal)) {
		return times(x) + "~"
	}
	return times(x)
}

func p50Range(f *idealFigures) [2]float64 { return f.P50Range }
func p99Range(f *idealFigures) [2]float64 { return f.P99Range }

// footer explains the columns, and the marks the rows carry.
func footer(rows []row) string {
	var b strings.Builder
	b.WriteString("latencies in ms, failed reads included at the time they failed; fanout: of requests (reads: requests x partitions)\n")
	b.WriteString("extra = speculative replica reads (hedges, and reconcile reads to replicas a mismatched read had not contacted), as a share of the replica reads NEVER sends in the same scenario\n")
	b.WriteString("suppressed = speculative actions the budget or the overload switch held back: hedges, and reconcile reads and repair writes to replicas the read had not contacted\n")
	b.WriteString("mismatches = reads whose replicas' digests disagreed; repairs = repair writes sent to the stale replicas a read merged (not the additional writes to others)\n")
	b.WriteString("p50/ideal, p99/ideal = realized over the same scenario's model with zero coordinator and runtime overhead\n")
	b.WriteString("late = p99 of how late a 1 ms sleep woke while the row was measured, a stall counted as every wake-up it held back, in ms\n")
	if anyRow(rows, func(r row) bool { return r.Ideal == nil }) {
		b.WriteString("– no model: " + noModel + "\n")
	}
	if anyRow(rows, func(r row) bool { return r.Latencies < fewLatencies }) {
		fmt.Fprintf(&b, "* p99.9 of at most %d latencies: their largest, or next to it\n", fewLatencies-1)
	}
	b.WriteString(gapNote(rows))
	b.WriteString(deadReplicaNote(rows))
	b.WriteString(overloadWarning(rows))
	return b.String()
}

// gapNote explains the ~ marks, naming each marked percentile's sample
// range, or is empty.
func gapNote(rows []row) string {
	var lines []string
	for _, r := range rows {
		if r.Ideal == nil {
			continue
		}
		for _, q := range []struct {
			name string
			r    [2]float64
		}{{"p50", r.Ideal.P50Range}, {"p99", r.Ideal.P99Range}} {
			if gapped(q.r) {
				lines = append(lines, fmt.Sprintf("~   %s %s: the %s of %d latencies drawn from the model lies in %.1f-%.1f ms\n",
					r.Scenario, r.Policy, q.name, r.Latencies, q.r[0], q.r[1]))
			}
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "~ the model's latencies have a gap at this percentile (19 times in 20, a sample of the row's size puts it in the range below): a run with no overhead can land on either side, so the ratio says little\n" +
		strings.Join(lines, "")
}

// deadReplicaNote says, for replica-down, how many requests reached the
// crashed replica after its crash, per policy.
func deadReplicaNote(rows []row) string {
	var counts []string
	for _, r := range rows {
		if r.DeadReplicaRequests != nil {
			counts = append(counts, fmt.Sprintf("%s %d", r.Policy, *r.DeadReplicaRequests))
		}
	}
	if len(counts) == 0 {
		return ""
	}
	return "replica-down: ring.Detector convicts the crashed replica at its first refused request; requests it received after the crash: " +
		strings.Join(counts, ", ") + "\n"
}

// overloadWarning names the untrustworthy rows, or is empty.
func overloadWarning(rows []row) string {
	var bad []row
	for _, r := range rows {
		if !r.Trustworthy {
			bad = append(bad, r)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "! WARNING: %d of %d rows ran on an overloaded machine (1 wake-up in 100 over %.0f ms late, or goroutines may have waited that long to run): their figures are the machine's, not the read path's; rerun on a quiet machine\n",
		len(bad), len(rows), overloadMS)
	for _, r := range bad {
		fmt.Fprintf(&b, "!   %s %s: %s\n", r.Scenario, r.Policy, r.Warning)
	}
	return b.String()
}

func anyRow(rows []row, f func(row) bool) bool {
	for _, r := range rows {
		if f(r) {
			return true
		}
	}
	return false
}

// align left-aligns the first two columns and right-aligns the rest.
func align(cells [][]string) string {
	widths := make([]int, len(cells[0]))
	for _, r := range cells {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range cells {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i < 2 {
				line.WriteString(c + pad + "  ")
			} else {
				line.WriteString(pad + c + "  ")
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.String()
}
