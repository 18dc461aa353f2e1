package main

import "math"

// row is one line of readsim's output. The JSON keys are readsim's
// contract with scripts.
type row struct {
	Scenario   string  `json:"scenario"`
	Policy     string  `json:"policy"`
	Reads      int64   `json:"reads"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
	P999       float64 `json:"p999_ms"`
	Max        float64 `json:"max_ms"`
	ExtraLoad  float64 `json:"extra_load"`
	Hedges     int64   `json:"hedges"`
	HedgeWins  int64   `json:"hedge_wins"`
	Suppressed int64   `json:"suppressed"`
	Mismatches int64   `json:"mismatches"`
	Repairs    int64   `json:"repairs"`
	Errors     int64   `json:"errors"`
}

// toRow summarises an outcome. Its extra load is the speculative requests
// it sent per replica read that baseline, the same scenario under NEVER,
// sent for as many reads.
func toRow(o, baseline outcome) row {
	m := o.metrics
	return row{
		Scenario: o.s.name, Policy: o.policy, Reads: m.Reads,
		P50: round2(o.lat.quantileMS(50)), P99: round2(o.lat.quantileMS(99)),
		P999: round2(o.lat.quantileMS(99.9)), Max: round2(o.lat.maxMS()),
		ExtraLoad: round4(float64(m.SpeculativeRetries) / (requestsPerRead(baseline) * float64(max(1, m.Reads)))),
		Hedges:    m.SpeculativeRetries, HedgeWins: m.HedgeWins,
		Suppressed: m.SuppressedBudget + m.SuppressedOverload,
		Mismatches: m.DigestMismatches, Repairs: m.RepairsSent, Errors: o.errors,
	}
}

// requestsPerRead is the replica reads (data and digest) a read cost.
func requestsPerRead(o outcome) float64 {
	return float64(o.metrics.DataRequests+o.metrics.DigestRequests) / float64(max(1, o.metrics.Reads))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
