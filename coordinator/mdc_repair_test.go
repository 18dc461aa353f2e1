package coordinator_test

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// staleScenario picks, from key's replicas per datacenter in ring order,
// those holding an older version.
type staleScenario struct {
	name  string
	stale func(byDC map[string][]string) []string
}

var staleScenarios = []staleScenario{
	{"first-of-dc1", func(b map[string][]string) []string { return b["dc1"][:1] }},
	{"all-of-dc2", func(b map[string][]string) []string { return b["dc2"] }},
	{"last-of-each-dc", func(b map[string][]string) []string {
		var out []string
		for _, ids := range b {
			out = append(out, ids[len(ids)-1])
		}
		return out
	}},
}

// TestMultiDatacenterBlockingRepairMatchesCassandra reads at every level
// with some replicas stale, and checks the BLOCKING repair against
// Cassandra's BlockingPartitionRepair: exactly the stale replicas that
// answered are written; the read waits for the level's blockFor less the
// contacted replicas already up to date (per datacenter at EACH_QUORUM, a
// documented difference); when the stale replicas' writes stall, the
// additional writes go to every live uncontacted replica (the local
// datacenter's only at a DC-local level) and their acknowledgements count;
// short of them the read times out with DataPresent and the level's
// blockFor less the writes awaited.
func TestMultiDatacenterBlockingRepairMatchesCassandra(t *testing.T) {
	for _, rf := range sweepRFs() {
		for _, l := range sweepLevels {
			for _, sc := range staleScenarios {
				for _, stall := range []bool{false, true} {
					for _, addl := range []string{"NEVER", "5ms"} {
						name := fmt.Sprintf("%v/%v/%s/stall=%v/additional=%s", rf, l, sc.name, stall, addl)
						t.Run(name, func(t *testing.T) {
							synctest.Test(t, func(t *testing.T) { sweepRepair(t, rf, l, sc, stall, addl) })
						})
					}
				}
			}
		}
	}
}

func sweepRepair(t *testing.T, rf cassRF, l consistency.Level, sc staleScenario, stall bool, addl string) {
	const localDC = "dc1"
	cl := newSweepCluster(t, rf)
	byDC := keyReplicasByDC(t, cl)
	live := liveCounts(byDC, nil)
	if cassUnavailable(l, rf, localDC, live) != nil {
		t.Skip("unavailable: the plan sweep covers it")
	}
	stale := sc.stale(byDC)
	require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), nonStale(byDC, stale)...))
	if stall { // reads arrive at 0 and 1 ms, repair writes at 2 ms
		for _, id := range stale {
			require.NoError(t, cl.Replica(id).SetBehavior(replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
				Pauses: []replicatest.Window{{Start: ms(1.5), End: time.Hour}}}))
		}
	}
	o := policy(t, "NEVER")
	o.AdditionalWritePolicy = policy(t, addl).SpeculativeRetry
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: localDC, DefaultTable: o, ReadTimeout: ms(100),
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})

	res, _, err := e.read(l)
	tr := res.Trace
	var timeout *consistency.ReadTimeoutError
	contacted := contactedIn(tr, coordinator.PhaseInitial)
	versions := append(contactedIn(tr, coordinator.PhaseReconcile), dataAnswerers(tr)...)
	if !tr.DigestMismatch {
		// The contacts agreed: all stale or all up to date.
		assert.NoError(t, err)
		n := 0
		for _, id := range contacted {
			if slices.Contains(stale, id) {
				n++
			}
		}
		assert.True(t, n == 0 || n == len(contacted), "%d of %v stale, no mismatch", n, contacted)
		return
	}
	var wantRepaired []string
	for _, id := range contacted {
		if slices.Contains(stale, id) && slices.Contains(versions, id) {
			wantRepaired = append(wantRepaired, id)
		}
	}
	assert.ElementsMatch(t, wantRepaired, tr.Repaired, "the stale replicas that answered, and no other")

	// What holds the result once the writes that can be acknowledged are.
	holders := map[string]int{}
	for _, id := range contacted {
		if !slices.Contains(stale, id) || !stall {
			holders[dcOf(id)]++
		}
	}
	var targets []string
	if stall && addl != "NEVER" {
		for _, ids := range byDC {
			for _, id := range ids {
				if !slices.Contains(contacted, id) && (!l.IsDatacenterLocal() || dcOf(id) == localDC) {
					targets = append(targets, id)
				}
			}
		}
		for _, id := range targets {
			if !slices.Contains(stale, id) {
				holders[dcOf(id)]++
			}
		}
	}
	assert.ElementsMatch(t, targets, additionalTargets(tr), "additional writes")
	if repairEnough(l, rf, localDC, holders) {
		assert.NoError(t, err, "holders %v", holders)
		return
	}
	if assert.ErrorAs(t, err, &timeout, "holders %v", holders) {
		assert.True(t, timeout.DataPresent)
		assert.Equal(t, cassBlockFor(l, rf, localDC), timeout.BlockFor)
		assert.Equal(t, countedHolders(l, rf, holders), timeout.Received, "holders %v", holders)
	}
}

func nonStale(byDC map[string][]string, stale []string) []string {
	var out []string
	for _, ids := range byDC {
		for _, id := range ids {
			if !slices.Contains(stale, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// repairEnough says whether holders (per datacenter) meet the level:
// blockFor in all, and at EACH_QUORUM a quorum in each datacenter.
func repairEnough(l consistency.Level, rf cassRF, localDC string, holders map[string]int) bool {
	if l == consistency.EachQuorum {
		for _, dc := range rf.dcs() {
			if holders[dc] < cassQuorum(rf[dc]) {
				return false
			}
		}
		return true
	}
	n := 0
	for _, h := range holders {
		n += h
	}
	return n >= cassBlockFor(l, rf, localDC)
}

func countedHolders(l consistency.Level, rf cassRF, holders map[string]int) int {
	n := 0
	for dc, h := range holders {
		if l == consistency.EachQuorum {
			h = min(h, cassQuorum(rf[dc]))
		}
		n += h
	}
	return n
}

func contactedIn(tr coordinator.Trace, ph coordinator.Phase) []string {
	var out []string
	for _, rt := range tr.Requests {
		if rt.Phase == ph && !slices.Contains(out, rt.Endpoint) {
			out = append(out, rt.Endpoint)
		}
	}
	return out
}

func dataAnswerers(tr coordinator.Trace) []string {
	var out []string
	for _, rt := range tr.Requests {
		if rt.Phase == coordinator.PhaseInitial && rt.Kind == coordinator.KindData && rt.Outcome == coordinator.Answered {
			out = append(out, rt.Endpoint)
		}
	}
	return out
}

func additionalTargets(tr coordinator.Trace) []string {
	var out []string
	for _, rt := range tr.Requests {
		if rt.Phase == coordinator.PhaseRepair && rt.Speculative {
			out = append(out, rt.Endpoint)
		}
	}
	return out
}
