package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleRows() []row {
	f := func(x float64) *float64 { return &x }
	dead := int64(2)
	slow := timing{LateP99: 3.1, SchedP99: 5.2}
	return []row{
		{Scenario: "gc-pauses", Policy: "NEVER", Reads: 4000, Latencies: 4000, P50: 2.64, P99: 78.06, P999: 98.94, Max: 102.71,
			Ideal:      &idealFigures{P50: 2.5, P99: 77.2, P50Range: [2]float64{2.45, 2.56}, P99Range: [2]float64{72.1, 86}},
			P50VsIdeal: f(1.06), P99VsIdeal: f(1.01), Timing: timing{LateP99: 1.6}, Trustworthy: true},
		{Scenario: "gc-pauses", Policy: "99p", Reads: 4000, Latencies: 4000, P50: 2.6, P99: 11.7, P999: 72, Max: 73.3, ExtraLoad: 0.009,
			Hedges: 17, HedgeWins: 16, Ideal: &idealFigures{P50: 2.5, P99: 55.7, P50Range: [2]float64{2.44, 2.55}, P99Range: [2]float64{9.4, 70.6}},
			P50VsIdeal: f(1.04), P99VsIdeal: f(0.21), Timing: timing{LateP99: 1.3}, Trustworthy: true},
		{Scenario: "gc-pauses", Policy: "90p", Reads: 4000, Latencies: 4000, P50: 2.7, P99: 6.94, P999: 8.3, Max: 9.5, ExtraLoad: 0.0337,
			Hedges: 270, HedgeWins: 110, Ideal: &idealFigures{P50: 2.5, P99: 6.4}, P50VsIdeal: f(1.08), P99VsIdeal: f(1.08), Timing: timing{LateP99: 1.1}, Trustworthy: true},
		{Scenario: "replica-down", Policy: "NEVER", Reads: 4000, Latencies: 4000, P50: 2.6, P99: 6.2, P999: 8.2, Max: 8.9, Errors: 2,
			Timing: timing{LateP99: 1.2}, Trustworthy: true, DeadReplicaRequests: &dead},
		{Scenario: "fanout", Policy: "95p", Reads: 25000, Latencies: 250, P50: 12.1, P99: 82.4, P999: 92.7, Max: 92.7, ExtraLoad: 0.0201,
			Hedges: 1004, HedgeWins: 660, Suppressed: 3, Mismatches: 4, Repairs: 5, Ideal: &idealFigures{P50: 10.3, P99: 75}, P50VsIdeal: f(1.17), P99VsIdeal: f(1.1),
			Timing: slow, Warning: slow.warning(), Trustworthy: false},
	}
}

// The table and -json print the same rows: every cell of the table is the
// JSON row's value, formatted; the marks (*, ~ and !) follow latencies,
// the ideal's sample ranges and trustworthy; the footer names every
// untrustworthy row, every ratio at a gap and the dead replica's requests.
func TestTableMatchesJSON(t *testing.T) {
	rows := sampleRows()
	var js bytes.Buffer
	require.NoError(t, printRows(rows, true, &js))
	var decoded []row
	require.NoError(t, json.Unmarshal(js.Bytes(), &decoded))
	require.Equal(t, rows, decoded, "JSON round-trips every field")

	table := renderRows(rows)
	lines := strings.Split(table, "\n")
	assert.Equal(t, header, strings.Fields(lines[0]))
	for i, r := range decoded {
		cells := strings.Fields(lines[i+1])
		require.Len(t, cells, len(header), lines[i+1])
		reads := fmt.Sprint(r.Reads)
		if r.Latencies != r.Reads {
			reads = fmt.Sprintf("%dx%d", r.Latencies, r.Reads/r.Latencies)
		}
		star, bang := "", ""
		if r.Latencies < fewLatencies {
			star = "*"
		}
		if !r.Trustworthy {
			bang = "!"
		}
		ratio := func(x *float64, rng func(*idealFigures) [2]float64) string {
			if x == nil {
				return "–"
			}
			if rg := rng(r.Ideal); rg[1] > 2*rg[0] {
				return fmt.Sprintf("%.2f~", *x)
			}
			return fmt.Sprintf("%.2f", *x)
		}
		want := []string{r.Scenario, r.Policy, reads,
			fmt.Sprintf("%.1f", r.P50), fmt.Sprintf("%.1f", r.P99), fmt.Sprintf("%.1f", r.P999) + star, fmt.Sprintf("%.1f", r.Max),
			ratio(r.P50VsIdeal, p50Range), ratio(r.P99VsIdeal, p99Range), fmt.Sprintf("%+.1f%%", 100*r.ExtraLoad),
			fmt.Sprint(r.Hedges), fmt.Sprint(r.HedgeWins), fmt.Sprint(r.Suppressed), fmt.Sprint(r.Mismatches),
			fmt.Sprint(r.Repairs), fmt.Sprint(r.Errors), fmt.Sprintf("%.1f", r.Timing.LateP99) + bang}
		assert.Equal(t, want, cells, "row %d", i)
	}
	assert.Contains(t, table, "250x100")
	assert.Contains(t, table, "requests it received after the crash: NEVER 2\n")
	assert.Contains(t, table, "0.21~")
	assert.Contains(t, table, "~   gc-pauses 99p: the p99 of 4000 latencies drawn from the model lies in 9.4-70.6 ms\n")
	assert.NotContains(t, table, "~   gc-pauses NEVER")
	assert.Contains(t, table, "! WARNING: 1 of 5 rows")
	assert.Contains(t, table, "!   fanout 95p: goroutines waited up to 5.2 ms to run (p99)\n")
	assert.Contains(t, table, "* p99.9 of at most 1500 latencies")
	assert.Contains(t, table, "– no model:")
}

// -json prints only the JSON, even with -plot; the table mode adds the
// plot's path after the table.
func TestJSONHasNothingElse(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, report(sampleRows(), options{json: true}, &out))
	var decoded []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &decoded))
	assert.Len(t, decoded, len(sampleRows()))
	for _, r := range decoded {
		_, hasDead := r["dead_replica_requests"]
		assert.True(t, hasDead)
	}
	assert.Nil(t, decoded[0]["dead_replica_requests"])
	assert.Equal(t, 2.0, decoded[3]["dead_replica_requests"])
	assert.Equal(t, []any{9.4, 70.6}, decoded[1]["ideal"].(map[string]any)["p99_range_ms"])
	assert.Equal(t, []any{2.44, 2.55}, decoded[1]["ideal"].(map[string]any)["p50_range_ms"])
}
