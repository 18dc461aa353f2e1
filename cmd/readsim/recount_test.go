package main

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
)

// tracedRun is one scenario's run under a policy as readsim makes it (a
// warm-up, then measured reads by closed-loop readers), with every
// measured read's latency and trace kept: the raw data a row's figures
// are recomputed from.
type tracedRun struct {
	out    outcome
	lats   []time.Duration
	traces []coordinator.Trace
	errs   int
}

func runTraced(t *testing.T, s scenario, policy string, reads int) tracedRun {
	t.Helper()
	o := options{reads: reads, readsSet: true, concurrency: 8, seed: 7}
	w, p := warmedWorkload(t, s, policy, o)
	c, keys := w.c, w.keys
	defer c.Close()
	before := c.Metrics().Total

	var mu sync.Mutex
	var tr tracedRun
	lat := newRecorder()
	w.closedLoop(o.concurrency, reads, func(rng *rand.Rand) {
		start := time.Now()
		res, err := c.Read(context.Background(), coordinator.Request{
			Table: table, Key: keys[rng.IntN(len(keys))], Level: consistency.Quorum,
		})
		d := time.Since(start)
		lat.record(d)
		mu.Lock()
		defer mu.Unlock()
		tr.lats = append(tr.lats, d)
		tr.traces = append(tr.traces, res.Trace)
		if err != nil {
			tr.errs++
		}
	})
	tr.out = outcome{job: job{s: s, policy: p.String(), p: p}, lat: lat,
		metrics: since(c.Metrics().Total, before), errors: int64(tr.errs)}
	return tr
}

// rankMS is the q-th percentile (0-100) of lats by the nearest rank,
// round(q/100 n), in ms.
func rankMS(lats []time.Duration, q float64) float64 {
	s := slices.Sorted(slices.Values(lats))
	i := int(q/100*float64(len(s)) + 0.5)
	return float64(s[min(max(i, 1), len(s))-1]) / float64(time.Millisecond)
}

// A row's figures, recomputed from its reads' latencies and traces with
// nothing of readsim's but the run: the percentiles (within the
// recorder's 3 significant digits, and its rounding to 0.01 ms), and the
// counts of hedges, wins, suppressed actions, mismatches and repairs, and
// the extra load against NEVER's replica requests, each from the traces.
func TestRowFiguresMatchTheirReadsTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulation")
	}
	const reads = 600
	for _, tc := range []struct {
		scenario string
		policies []string
	}{
		{"gc-pauses", []string{"ALWAYS", "95p", "10ms"}},
		{"stale-replica", []string{"ALWAYS", "90p"}},
	} {
		s, err := scenarioNamed(tc.scenario)
		require.NoError(t, err)
		synctest.Test(t, func(t *testing.T) {
			never := runTraced(t, s, "NEVER", reads)
			requests := 0
			for _, tr := range never.traces {
				for _, q := range tr.Requests {
					if q.Kind != coordinator.KindRepair {
						requests++
					}
				}
			}
			perRead := float64(requests) / float64(len(never.traces))
			for _, policy := range append([]string{"NEVER"}, tc.policies...) {
				run := never
				if policy != "NEVER" {
					run = runTraced(t, s, policy, reads)
				}
				r := toRow(run.out, never.out, nil)
				name := tc.scenario + " " + policy
				require.Len(t, run.lats, reads, name)
				assert.Equal(t, int64(reads), r.Reads, name)
				assert.Equal(t, int64(reads), r.Latencies, name)
				for _, c := range []struct {
					q   float64
					got float64
				}{{50, r.P50}, {99, r.P99}, {99.9, r.P999}, {100, r.Max}} {
					want := rankMS(run.lats, c.q)
					assert.InDelta(t, want, c.got, want/1000+halfStep, "%s p%v", name, c.q)
				}
				var hedges, wins, suppressed, mismatches, repairs, speculative int64
				for _, tr := range run.traces {
					for _, h := range []coordinator.HedgeTrace{tr.Hedge, tr.ReconcileHedge, tr.AdditionalWrite} {
						if h.Suppressed == coordinator.SuppressedBudget || h.Suppressed == coordinator.SuppressedOverload {
							suppressed++
						}
					}
					if tr.Hedge.Fired {
						hedges++
						speculative++
					}
					if tr.Hedge.Won {
						wins++
					}
					if tr.ReconcileHedge.Fired {
						speculative++
					}
					if tr.DigestMismatch {
						mismatches++
					}
					repairs += int64(len(tr.Repaired))
				}
				assert.Equal(t, hedges, r.Hedges, "%s hedges", name)
				assert.Equal(t, wins, r.HedgeWins, "%s wins", name)
				assert.Equal(t, suppressed, r.Suppressed, "%s suppressed", name)
				assert.Equal(t, mismatches, r.Mismatches, "%s mismatches", name)
				assert.Equal(t, repairs, r.Repairs, "%s repairs", name)
				assert.Equal(t, int64(run.errs), r.Errors, "%s errors", name)
				extra := float64(speculative) / (perRead * float64(reads))
				assert.InDelta(t, extra, r.ExtraLoad, halfStep/100, "%s extra", name)
			}
		})
	}
}

// The fan-out rows' figures, recomputed from their requests: the
// latencies are of whole requests, each its slowest partition read's
// wait, the reads column counts partition reads, and the extra load is
// the hedges of all of them against NEVER's replica requests per read.
func TestFanoutRowFiguresMatchTheirRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulation")
	}
	const requests = 60
	s, err := scenarioNamed("fanout")
	require.NoError(t, err)
	synctest.Test(t, func(t *testing.T) {
		type fanRun struct {
			out              outcome
			lats             []time.Duration
			hedges, requests int
		}
		runFan := func(policy string) fanRun {
			o := options{reads: 4 * requests, readsSet: true, concurrency: 8, seed: 3}
			w, p := warmedWorkload(t, s, policy, o)
			c, keys := w.c, w.keys
			defer c.Close()
			before := c.Metrics().Total
			var mu sync.Mutex
			var fr fanRun
			lat := newRecorder()
			w.openLoop(requests, fanoutRate, func(rng *rand.Rand, _ time.Duration) func() {
				ks := rng.Perm(len(keys))[:s.fanout]
				return func() {
					many := make([]string, len(ks))
					for i, k := range ks {
						many[i] = keys[k]
					}
					start := time.Now()
					res, err := c.ReadMany(context.Background(), coordinator.ManyRequest{
						Table: table, Keys: many, Level: consistency.Quorum, Concurrency: len(many),
					})
					d := time.Since(start)
					assert.NoError(t, err) // not require: off the test's goroutine
					lat.record(d)
					mu.Lock()
					defer mu.Unlock()
					fr.lats = append(fr.lats, d)
					for _, r := range res {
						assert.NoError(t, r.Err)
						if r.Result.Trace.Hedge.Fired {
							fr.hedges++
						}
						for _, q := range r.Result.Trace.Requests {
							if q.Kind != coordinator.KindRepair {
								fr.requests++
							}
						}
					}
				}
			})
			fr.out = outcome{job: job{s: s, policy: p.String(), p: p}, lat: lat, metrics: since(c.Metrics().Total, before)}
			return fr
		}
		never := runFan("NEVER")
		perRead := float64(never.requests) / float64(requests*s.fanout)
		for _, run := range []fanRun{never, runFan("95p")} {
			r := toRow(run.out, never.out, nil)
			assert.Equal(t, int64(requests*s.fanout), r.Reads)
			assert.Equal(t, int64(requests), r.Latencies)
			assert.Equal(t, "60x100", cellsOf(r)[2])
			for _, c := range []struct {
				q   float64
				got float64
			}{{50, r.P50}, {99, r.P99}, {99.9, r.P999}, {100, r.Max}} {
				want := rankMS(run.lats, c.q)
				assert.InDelta(t, want, c.got, want/1000+halfStep, "%s p%v", r.Policy, c.q)
			}
			assert.Equal(t, int64(run.hedges), r.Hedges, r.Policy)
			extra := float64(run.hedges) / (perRead * float64(requests*s.fanout))
			assert.InDelta(t, extra, r.ExtraLoad, halfStep/100, r.Policy)
		}
	})
}

// warmedWorkload is readsim's workload for scenario s under policy, as
// main builds it, warmed up, and the policy parsed; its caller closes the
// workload's coordinator.
func warmedWorkload(t *testing.T, s scenario, policy string, o options) (*workload, latency.SpeculativeRetry) {
	t.Helper()
	p, err := latency.ParseSpeculativeRetry(policy)
	require.NoError(t, err)
	cl, keys, err := newCluster(s, o.seed)
	require.NoError(t, err)
	c, err := coordinator.New(coordinator.Config{
		Locator: cl, Liveness: cl, LocalDatacenter: "dc1",
		ReadTimeout: readTimeout, ThresholdRefresh: thresholdRefresh, LatencyWindow: latencyWindow,
		DefaultTable: coordinator.TableOptions{SpeculativeRetry: p},
		HedgeBudget:  s.hedgeBudget(),
	})
	require.NoError(t, err)
	w := &workload{c: c, cluster: cl, keys: keys, o: o, s: s}
	w.warmUp()
	return w, p
}

// halfStep is half the 0.01 (ms, or percentage point) a row rounds its
// figures to, and a little more: a figure that lies halfway, as an extra
// load of 2.625 %, rounds up by the half step exactly, which the float
// arithmetic of the difference may put a hair over it.
const halfStep = 0.005 + 1e-9
