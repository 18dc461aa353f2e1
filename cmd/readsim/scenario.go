package main

import (
	"fmt"
	"time"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// scenario is one model of a cluster and its traffic.
type scenario struct {
	name string
	// shows is what the scenario demonstrates: notes for the README's
	// table, which readsim does not print.
	shows string
	// behavior is every replica's from the start; midRun changes the
	// cluster once the warm-up is over.
	behavior replicatest.Behavior
	workers  int // per replica; 0 for no queueing
	midRun   func(c *replicatest.Cluster) error
	// detector runs the coordinator with ring.Detector as its liveness view,
	// learning from the coordinator's own requests, instead of the
	// cluster's view, which never changes.
	detector bool
	// staleKeys is the fraction of keys one replica holds an older version of.
	staleKeys float64
	// load: closed loop (concurrency readers), open loop at a rate, or
	// fan-out requests of fanout partitions each.
	openLoop   bool
	slowdownTo float64 // open loop: the cluster slowdown reached at the end, at peakUtilization
	fanout     int
	noBudget   bool // lift the hedge budget
}

// defaultBudget is the coordinator's default hedge budget, spelled out so
// that the ideal model follows the same one.
var defaultBudget = coordinator.HedgeBudget{Percent: 0.1, Window: 10 * time.Second, MinPerSecond: 1}

// hedgeBudget is the budget the scenario's coordinator runs with.
func (s scenario) hedgeBudget() coordinator.HedgeBudget {
	if s.noBudget {
		return coordinator.HedgeBudget{Unlimited: true}
	}
	return defaultBudget
}

// The replicas' usual latency: log-normal around 2 ms.
var healthyLatency = replicatest.LogNormal(2*time.Millisecond, 0.4)

func gcPauses() replicatest.Behavior {
	return replicatest.Behavior{
		Latency:     healthyLatency,
		PauseChance: 0.01,
		PauseLength: replicatest.Uniform(50*time.Millisecond, 100*time.Millisecond),
	}
}

var scenarios = []scenario{
	{
		name:     "healthy",
		shows:    "the baseline: RF 3, QUORUM, log-normal latency around 2 ms; a percentile policy hedges about 1 % of reads",
		behavior: replicatest.Behavior{Latency: healthyLatency},
	},
	{
		name:     "gc-pauses",
		shows:    "1 % of replica reads stall 50-100 ms in a GC pause: the tail the hedge exists for",
		behavior: gcPauses(),
	},
	{
		name:      "stale-replica",
		shows:     "one replica holds older versions of 30 % of the keys: digest mismatches, merges and read repair",
		behavior:  replicatest.Behavior{Latency: healthyLatency},
		staleKeys: 0.3,
	},
	{
		name:     "replica-down",
		shows:    "one replica of three crashes mid-run (its connections are refused): the failure detector convicts it at the first refused request, and no read is sent to it afterwards",
		behavior: replicatest.Behavior{Latency: healthyLatency},
		midRun:   func(c *replicatest.Cluster) error { return c.Replicas()[0].SetFault(replicatest.Down()) },
		detector: true,
	},
	{
		name:       "cluster-slowdown",
		shows:      "open-loop traffic while every replica's service time grows sixfold, to 85 % utilization: the hedge budget keeps hedges from adding the load that tips the replicas over",
		behavior:   replicatest.Behavior{Latency: healthyLatency},
		workers:    32,
		openLoop:   true,
		slowdownTo: 6,
	},
	{
		name:       "cluster-slowdown-nobudget",
		shows:      "the same slowdown with the budget lifted: ALWAYS, or a fixed threshold the slowdown outgrows, hedges most reads and turns the slowdown into a hedge storm",
		behavior:   replicatest.Behavior{Latency: healthyLatency},
		workers:    32,
		openLoop:   true,
		slowdownTo: 6,
		noBudget:   true,
	},
	{
		name:     "fanout",
		shows:    "a request reads 100 partitions in parallel (The Tail at Scale's multi-get) over gc-pauses replicas: almost every request meets a pause",
		behavior: gcPauses(),
		fanout:   100,
	},
}

func scenarioNamed(name string) (scenario, error) {
	for _, s := range scenarios {
		if s.name == name {
			return s, nil
		}
	}
	return scenario{}, fmt.Errorf("unknown scenario %q (have %s)", name, scenarioNames())
}

func scenarioNames() string {
	names := ""
	for i, s := range scenarios {
		if i > 0 {
			names += ", "
		}
		names += s.name
	}
	return names
}
