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

// TestMultiDatacenterDigestFirstPlans reads key under DigestFirst at every
// level over the sweep's replications and down scenarios, every replica
// taking 10 ms under NEVER, ALWAYS and a 2 ms threshold: availability is
// Cassandra's (cassref_test.go's model), every live candidate — of the
// local datacenter only at a DC-local level — is asked for a digest, the
// data goes to one that answered its digest, and EACH_QUORUM never
// speculates.
func TestMultiDatacenterDigestFirstPlans(t *testing.T) {
	for _, rf := range sweepRFs() {
		for _, sr := range []string{"NEVER", "ALWAYS", "2ms"} {
			t.Run(fmt.Sprint(rf, sr), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { sweepDigestFirst(t, rf, sr) })
			})
		}
	}
}

func sweepDigestFirst(t *testing.T, rf cassRF, sr string) {
	const localDC = "dc1"
	cl := newSweepCluster(t, rf)
	for _, r := range cl.Replicas() {
		require.NoError(t, r.SetBehavior(constant(ms(10))))
	}
	o := policy(t, sr)
	o.Strategy = coordinator.DigestFirst
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: localDC, DefaultTable: o,
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
	eachDownScenario(t, cl, func(name string, live map[string]int) {
		for _, l := range sweepLevels {
			what := fmt.Sprintf("%s %v live %v", name, l, live)
			res, _, err := e.read(l)
			if want := cassUnavailable(l, rf, localDC, live); want != nil {
				var u *consistency.UnavailableError
				if assert.ErrorAs(t, err, &u, what) {
					assert.Equal(t, *want, *u, what)
				}
				continue
			}
			if assert.NoError(t, err, what) {
				checkDigestFirst(t, what, localDC, live, l, res.Trace)
			}
			settle()
		}
	})
}

func checkDigestFirst(t *testing.T, what, localDC string, live map[string]int, l consistency.Level, tr coordinator.Trace) {
	t.Helper()
	if l == consistency.EachQuorum {
		assert.False(t, tr.Hedge.Fired, "%s: EACH_QUORUM speculated to %s", what, tr.Hedge.To)
	}
	digests, answered := map[string]int{}, map[string]bool{}
	for _, rt := range tr.Requests {
		if l.IsDatacenterLocal() {
			assert.Equal(t, localDC, dcOf(rt.Endpoint), "%s: a DC-local read left %s: %+v", what, localDC, rt)
		}
		switch {
		case rt.Kind == coordinator.KindDigest && rt.Phase == coordinator.PhaseInitial:
			digests[dcOf(rt.Endpoint)]++
			answered[rt.Endpoint] = rt.Outcome == coordinator.Answered
		case rt.Kind == coordinator.KindData && tr.BlockFor > 1:
			assert.True(t, answered[rt.Endpoint], "%s: data from %s, whose digest had not come in", what, rt.Endpoint)
		}
	}
	if tr.BlockFor == 1 {
		return // a read of one replica is a plain read, digest-first or not
	}
	for dc, n := range live {
		if l.IsDatacenterLocal() && dc != localDC {
			n = 0
		}
		assert.Equal(t, n, digests[dc], "%s: digests asked of %s", what, dc)
	}
}
