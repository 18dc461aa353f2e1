package main

import (
	"time"

	"github.com/readpath/readpath/latency"
)

// idealFigures are what a row's scenario and policy give in the model,
// with zero coordinator and runtime overhead (see model).
type idealFigures struct {
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	P999      float64 `json:"p999_ms"`
	ExtraLoad float64 `json:"extra_load"`
	// P50Range and P99Range are where the p50 and p99 of as many
	// latencies as the row's, drawn from the model, fall 19 times in 20.
	P50Range [2]float64 `json:"p50_range_ms"`
	P99Range [2]float64 `json:"p99_range_ms"`
}

// gapRatio is how far apart a percentile's sample range's ends may be
// before the ratio to it is marked as telling little (see gapped): in
// -quick's 1,000 reads, gc-pauses' NEVER and ALWAYS p99s, in the pauses'
// spread of 50-100 ms, span about 1.5 times; under 99p, across the gap
// from the healthy reads, 9-83 ms.
const gapRatio = 2

// gapped reports whether a sample range spans a gap in the model's
// latencies: a ratio of a run's percentile to the model's can then read
// far from 1 on a run with no overhead.
func gapped(r [2]float64) bool { return r[1] > gapRatio*r[0] }

// ideals evaluates the model of the outcomes' scenario under each of their
// policies, for as many reads as each run made; nil when the scenario has
// no model. baseline is the scenario's run under NEVER, whose model's
// replica reads the extra load is counted against.
func ideals(outs []outcome, baseline outcome, seed uint64) []*idealFigures {
	m, ok := modelOf(baseline.s, seed)
	if !ok {
		return make([]*idealFigures, len(outs))
	}
	never := m.evaluate(latency.Never(), baseline.shape, seed)
	figs := make([]*idealFigures, len(outs))
	for i, out := range outs {
		f := m.evaluate(out.p, out.shape, seed)
		figs[i] = &idealFigures{
			P50: msOf(f.p50), P99: msOf(f.p99), P999: msOf(f.p999),
			ExtraLoad: round4(f.hedgesPerRead / never.requestsPerRead),
			P50Range:  [2]float64{msOf(f.p50Range[0]), msOf(f.p50Range[1])},
			P99Range:  [2]float64{msOf(f.p99Range[0]), msOf(f.p99Range[1])},
		}
	}
	return figs
}

func msOf(d time.Duration) float64 { return round2(float64(d) / float64(time.Millisecond)) }

// ratio is realized over ideal, or nil without an ideal.
func ratio(realized float64, ideal *idealFigures, pick func(*idealFigures) float64) *float64 {
	if ideal == nil || pick(ideal) <= 0 {
		return nil
	}
	r := round2(realized / pick(ideal))
	return &r
}
