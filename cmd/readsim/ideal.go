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
}

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
