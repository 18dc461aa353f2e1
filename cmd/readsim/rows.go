package main

import "math"

// row is one line of readsim's output. The JSON keys are readsim's
// contract with scripts.
type row struct {
	Scenario string `json:"scenario"`
	Policy   string `json:"policy"`
	// Reads counts partition reads; Latencies the latencies the
	// percentiles rest on: reads, or fan-out requests.
	Reads     int64   `json:"reads"`
	Latencies int64   `json:"latencies"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	P999      float64 `json:"p999_ms"`
	Max       float64 `json:"max_ms"`
	ExtraLoad float64 `json:"extra_load"`
	Hedges    int64   `json:"hedges"`
	HedgeWins int64   `json:"hedge_wins"`
	// Suppressed counts every speculative action the budget or the
	// overload switch held back: hedges, reconcile reads and additional
	// repair writes, so Hedges+Suppressed may exceed Reads.
	Suppressed int64 `json:"suppressed"`
	Mismatches int64 `json:"mismatches"`
	Repairs    int64 `json:"repairs"`
	Errors     int64 `json:"errors"`
	// Ideal is null for a scenario without a model; the ratios are
	// realized over ideal, null without one.
	Ideal      *idealFigures `json:"ideal"`
	P50VsIdeal *float64      `json:"p50_vs_ideal"`
	P99VsIdeal *float64      `json:"p99_vs_ideal"`
	// Timing is how late the machine woke goroutines; Trustworthy is false,
	// and Warning says why, when that was late enough to make the row's
	// figures the machine's.
	Timing      timing `json:"timing"`
	Trustworthy bool   `json:"trustworthy"`
	Warning     string `json:"warning"`
	// DeadReplicaRequests counts, in replica-down, the read requests the
	// crashed replica received after it crashed; null elsewhere.
	DeadReplicaRequests *int64 `json:"dead_replica_requests"`
}

// toRow summarises an outcome. Its extra load is the speculative reads it
// sent (hedges, and reconcile reads to replicas a mismatched read had not
// contacted) per replica read that baseline, the same scenario under
// NEVER, sent for as many reads.
func toRow(o, baseline outcome, ideal *idealFigures) row {
	m := o.metrics
	r := row{
		Scenario: o.s.name, Policy: o.policy, Reads: m.Reads, Latencies: o.lat.count(),
		P50: round2(o.lat.quantileMS(50)), P99: round2(o.lat.quantileMS(99)),
		P999: round2(o.lat.quantileMS(99.9)), Max: round2(o.lat.maxMS()),
		ExtraLoad: round4(float64(m.SpeculativeRetries+m.ReconcileSpeculations) / (requestsPerRead(baseline) * float64(max(1, m.Reads)))),
		Hedges:    m.SpeculativeRetries, HedgeWins: m.HedgeWins,
		Suppressed: m.SuppressedBudget + m.SuppressedOverload,
		Mismatches: m.DigestMismatches, Repairs: m.RepairsSent, Errors: o.errors,
		Ideal: ideal, Timing: o.timing, Warning: o.timing.warning(),
	}
	r.P50VsIdeal = ratio(r.P50, ideal, func(f *idealFigures) float64 { return f.P50 })
	r.P99VsIdeal = ratio(r.P99, ideal, func(f *idealFigures) float64 { return f.P99 })
	r.Trustworthy = r.Warning == ""
	if o.s.detector {
		r.DeadReplicaRequests = &o.changedReplicaReads
	}
	return r
}

// requestsPerRead is the replica reads (data and digest) a read cost.
func requestsPerRead(o outcome) float64 {
	return float64(o.metrics.DataRequests+o.metrics.DigestRequests) / float64(max(1, o.metrics.Reads))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
