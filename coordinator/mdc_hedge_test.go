package coordinator_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// TestMultiDatacenterHedgesMatchCassandra makes every replica take 10 ms
// under a 2 ms threshold, so that every read that may hedge does, and
// checks where the hedge went against Cassandra's SpeculatingReadExecutor
// (the first uncontacted candidate, the local datacenter's first): never
// out of the local datacenter at a DC-local level, never at EACH_QUORUM
// (CASSANDRA-11980), to a local replica while one is left, and nowhere
// when every candidate was contacted.
func TestMultiDatacenterHedgesMatchCassandra(t *testing.T) {
	for _, rf := range sweepRFs() {
		t.Run(fmt.Sprint(rf), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { sweepHedges(t, rf) })
		})
	}
}

func sweepHedges(t *testing.T, rf cassRF) {
	const localDC = "dc1"
	cl := newSweepCluster(t, rf)
	for _, r := range cl.Replicas() {
		require.NoError(t, r.SetBehavior(constant(ms(10))))
	}
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: localDC, DefaultTable: policy(t, "2ms"),
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
	eachDownScenario(t, cl, func(name string, live map[string]int) {
		for _, l := range sweepLevels {
			if cassUnavailable(l, rf, localDC, live) != nil {
				continue // the plan sweep checks those
			}
			what := fmt.Sprintf("%s %v live %v", name, l, live)
			res, _, err := e.read(l)
			require.NoError(t, err, what)
			checkHedge(t, what, rf, localDC, live, l, res.Trace)
		}
	})
}

func checkHedge(t *testing.T, what string, rf cassRF, localDC string, live map[string]int, l consistency.Level, tr coordinator.Trace) {
	t.Helper()
	h := tr.Hedge
	if l == consistency.EachQuorum {
		assert.False(t, h.Fired, "%s: EACH_QUORUM hedged to %s", what, h.To)
		return
	}
	wantLocal, wantTotal, _ := cassContacts(l, rf, localDC, live, false)
	candidates := live[localDC]
	if !l.IsDatacenterLocal() {
		candidates = 0
		for _, n := range live {
			candidates += n
		}
	}
	if wantTotal == candidates {
		assert.False(t, h.Fired, "%s: no candidate was left, yet it hedged to %s", what, h.To)
		assert.Equal(t, coordinator.NoCandidate, h.Suppressed, what)
		return
	}
	if !assert.True(t, h.Fired, "%s: a candidate was left (%v)", what, h.Suppressed) {
		return
	}
	if l.IsDatacenterLocal() || wantLocal < live[localDC] {
		assert.Equal(t, localDC, dcOf(h.To), "%s: hedged to %s with a local replica left", what, h.To)
	} else {
		assert.NotEqual(t, localDC, dcOf(h.To), what)
	}
}
