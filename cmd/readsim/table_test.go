package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTableCells(t *testing.T) {
	two, low := 1.07, 0.21
	for _, tc := range []struct {
		name string
		r    row
		want map[string]string // header -> cell
	}{
		{"a p99.9 of 1500 latencies is marked", row{Reads: 1500, Latencies: 1500, P999: 9.95, Trustworthy: true},
			map[string]string{"reads": "1500", "p99.9": "9.9*", "p50/ideal": "–", "late": "0.0"}},
		{"of 1501, not", row{Reads: 1501, Latencies: 1501, P999: 9.95, P50VsIdeal: &two, P99VsIdeal: &two, Trustworthy: true},
			map[string]string{"p99.9": "9.9", "p50/ideal": "1.07", "p99/ideal": "1.07"}},
		{"fan-out requests", row{Reads: 100000, Latencies: 1000, Trustworthy: true},
			map[string]string{"reads": "1000x100"}},
		{"untrustworthy", row{Reads: 1000, Latencies: 1000, Timing: timing{LateP99: 7.25}},
			map[string]string{"late": "7.2!"}},
		{"a ratio at a gap in the ideal's latencies is marked", row{Reads: 1000, Latencies: 1000, P50VsIdeal: &two, P99VsIdeal: &low,
			Ideal: &idealFigures{P50Range: [2]float64{2.4, 2.6}, P99Range: [2]float64{9.4, 70.6}}, Trustworthy: true},
			map[string]string{"p50/ideal": "1.07", "p99/ideal": "0.21~"}},
		{"a range of less than twice is not", row{Reads: 1000, Latencies: 1000, P50VsIdeal: &two, P99VsIdeal: &two,
			Ideal: &idealFigures{P50Range: [2]float64{2.4, 2.6}, P99Range: [2]float64{61.7, 123.4}}, Trustworthy: true},
			map[string]string{"p99/ideal": "1.07"}},
		{"nor is a missing ratio", row{Reads: 1000, Latencies: 1000,
			Ideal: &idealFigures{P99Range: [2]float64{9.4, 70.6}}, Trustworthy: true},
			map[string]string{"p99/ideal": "–"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cells := cellsOf(tc.r)
			for i, h := range header {
				if want, ok := tc.want[h]; ok {
					assert.Equal(t, want, cells[i], h)
				}
			}
		})
	}
}

// The footer explains a mark only when a row carries it.
func TestFooterExplainsTheMarks(t *testing.T) {
	clean := row{Latencies: 4000, Ideal: &idealFigures{}, Trustworthy: true}
	f := footer([]row{clean})
	assert.NotContains(t, f, "no model")
	assert.NotContains(t, f, "* p99.9")
	assert.NotContains(t, f, "WARNING")
	assert.NotContains(t, f, "~")

	few, noModel, bad := clean, clean, clean
	few.Latencies = 250
	noModel.Ideal = nil
	bad.Scenario, bad.Policy, bad.Trustworthy, bad.Warning = "fanout", "90p", false, "wake-ups 9.0 ms late (p99)"
	gap := clean
	gap.Scenario, gap.Policy = "gc-pauses", "99p"
	gap.Ideal = &idealFigures{P50Range: [2]float64{1, 4}, P99Range: [2]float64{9.4, 70.6}}
	f = footer([]row{clean, few, noModel, bad, gap})
	assert.Contains(t, f, "~ the model's latencies have a gap at this percentile")
	assert.Contains(t, f, "~   gc-pauses 99p: the p50 of 4000 latencies drawn from the model lies in 1.0-4.0 ms\n")
	assert.Contains(t, f, "~   gc-pauses 99p: the p99 of 4000 latencies drawn from the model lies in 9.4-70.6 ms\n")
	assert.Contains(t, f, "– no model: ")
	assert.Contains(t, f, "* p99.9 of at most 1500 latencies")
	assert.Contains(t, f, "! WARNING: 1 of 5 rows")
	assert.Contains(t, f, "!   fanout 90p: wake-ups 9.0 ms late (p99)\n")
}

// Columns line up although the dash is one character of three bytes.
func TestAlignCountsCharacters(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(align([][]string{{"a", "b", "ratio"}, {"x", "y", "–"}})), "\n")
	assert.Equal(t, []string{"a  b  ratio", "x  y      –"}, lines)
}
