package main

import (
	"context"
	"fmt"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	fd "github.com/readpath/readpath/ring"
)

// readTimeout bounds every simulated read: a latency-sensitive service's
// setting, shorter than Cassandra's 5 s so that a run is short.
const readTimeout = time.Second

// The simulation compresses time: a run lasts a second or two, not the
// hours a server runs. So the threshold is refreshed every 50 ms instead of
// every second, and the latency window is 2 s instead of a minute, keeping
// their ratios to the run's length and to the slowdown's ramp realistic.
const (
	thresholdRefresh = 50 * time.Millisecond
	latencyWindow    = 2 * time.Second
)

// job is one row to compute: a scenario under a policy.
type job struct {
	s      scenario
	policy string
	p      latency.SpeculativeRetry
}

// outcome is what the measured part of one run saw.
type outcome struct {
	job
	lat     *recorder
	metrics coordinator.TableMetrics // counted over the measured part only
	errors  int64
	timing  timing   // how late the machine woke goroutines meanwhile
	shape   runShape // what the run did, for its model to repeat
	// changedReplicaReads counts the read requests the replica midRun
	// changed received afterwards.
	changedReplicaReads int64
}

// runJob builds a fresh cluster and coordinator, warms the coordinator up
// (so that its threshold and snitch know the cluster, as they would in a
// long-running server), applies the scenario's mid-run change, and measures.
func runJob(j job, o options) (outcome, error) {
	cl, keys, err := newCluster(j.s, o.seed)
	if err != nil {
		return outcome{}, err
	}
	var live coordinator.Liveness = cl
	if j.s.detector {
		d, err := fd.NewDetector(fd.DetectorConfig{Seed: o.seed})
		if err != nil {
			return outcome{}, err
		}
		defer d.Close()
		live = d
	}
	c, err := coordinator.New(coordinator.Config{
		Locator: cl, Liveness: live, LocalDatacenter: "dc1",
		ReadTimeout: readTimeout, ThresholdRefresh: thresholdRefresh, LatencyWindow: latencyWindow,
		DefaultTable: coordinator.TableOptions{SpeculativeRetry: j.p},
		HedgeBudget:  j.s.hedgeBudget(),
	})
	if err != nil {
		return outcome{}, err
	}
	defer c.Close()
	w := &workload{c: c, cluster: cl, keys: keys, o: o, s: j.s}
	idle := measureIdle(o.meter)
	warm := w.warmUp()
	if j.s.midRun != nil {
		if err := j.s.midRun(cl); err != nil {
			return outcome{}, fmt.Errorf("scenario %s: %w", j.s.name, err)
		}
	}
	changed := cl.Replicas()[0].Stats().Reads // the replica midRun changes
	before := c.Metrics().Total
	w.errors.Store(0)
	lat := newRecorder()
	w.thresholds = &thresholdLog{}
	end := o.meter()
	w.run(w.measured(), lat)
	t := end()
	t.IdleLateP99 = idle
	out := outcome{job: j, lat: lat, metrics: since(c.Metrics().Total, before), errors: w.errors.Load(), timing: t,
		shape: runShape{warmUp: warm, measured: w.measured(), thresholds: w.thresholds.list()}}
	if j.s.midRun != nil {
		out.changedReplicaReads = cl.Replicas()[0].Stats().Reads - changed
	}
	return out, nil
}

// since returns the counters readsim reports, as counted after before.
func since(now, before coordinator.TableMetrics) coordinator.TableMetrics {
	return coordinator.TableMetrics{
		Reads:              now.Reads - before.Reads,
		DataRequests:       now.DataRequests - before.DataRequests,
		DigestRequests:     now.DigestRequests - before.DigestRequests,
		SpeculativeRetries: now.SpeculativeRetries - before.SpeculativeRetries,
		// Speculative replica reads too, after a digest mismatch: extra load.
		ReconcileSpeculations: now.ReconcileSpeculations - before.ReconcileSpeculations,
		HedgeWins:             now.HedgeWins - before.HedgeWins,
		SuppressedBudget:      now.SuppressedBudget - before.SuppressedBudget,
		SuppressedOverload:    now.SuppressedOverload - before.SuppressedOverload,
		DigestMismatches:      now.DigestMismatches - before.DigestMismatches,
		RepairsSent:           now.RepairsSent - before.RepairsSent,
	}
}

// readOne reads one key at QUORUM and reports how long it took.
func (w *workload) readOne(ctx context.Context, key string) (time.Duration, error) {
	start := time.Now()
	res, err := w.c.Read(ctx, coordinator.Request{Table: table, Key: key, Level: consistency.Quorum})
	d := time.Since(start)
	w.ranWith(res.Trace)
	return d, err
}
