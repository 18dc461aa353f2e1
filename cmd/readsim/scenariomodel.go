package main

import (
	"github.com/readpath/readpath/consistency"
)

// noModel says why the scenarios without a model have no ideal, for the
// table's footer.
const noModel = "the queueing at the replicas' workers (cluster-slowdown*) and the replica lost mid-run (replica-down) are not modelled"

// modelOf returns the scenario's model, or false when the model would
// leave out what the scenario is about: queueing at the replicas (its
// ideal depends on the arrival process and the slowdown's ramp) or a
// change of the cluster mid-run (its ideal depends on how soon the snitch
// notices). The model reads the scenario's stale keys as newCluster seeds
// them with seed.
func modelOf(s scenario, seed uint64) (model, bool) {
	if s.workers > 0 || s.openLoop || s.midRun != nil {
		return model{}, false
	}
	b := s.behavior
	return model{
		service: b.Latency, pauseChance: b.PauseChance, pause: b.PauseLength,
		replicas: replicationFactor, blockFor: consistency.Quorum.BlockFor(consistency.Simple(replicationFactor), ""),
		timeout: readTimeout, budget: budgetOf(s.hedgeBudget()),
		stale: staleKeySet(keyCount, s.staleKeys, seed), fanout: s.fanout,
	}, true
}
