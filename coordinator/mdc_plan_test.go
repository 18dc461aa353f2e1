package coordinator_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

var sweepLevels = []consistency.Level{
	consistency.One, consistency.Two, consistency.Three, consistency.Quorum,
	consistency.LocalOne, consistency.LocalQuorum, consistency.EachQuorum, consistency.All,
}

// sweepRFs are the replications the sweeps run over: every factor from 1
// to 5 in two and three datacenters, and uneven ones.
func sweepRFs() []cassRF {
	var out []cassRF
	for rf := 1; rf <= 5; rf++ {
		out = append(out, cassRF{"dc1": rf, "dc2": rf}, cassRF{"dc1": rf, "dc2": rf, "dc3": rf})
	}
	return append(out, cassRF{"dc1": 5, "dc2": 3, "dc3": 1}, cassRF{"dc1": 1, "dc2": 4}, cassRF{"dc1": 2, "dc2": 0, "dc3": 3})
}

// newSweepCluster builds five nodes on three racks in each datacenter of
// rf, every replica answering in 1 ms, key placed by the ring.
func newSweepCluster(t *testing.T, rf cassRF) *replicatest.Cluster {
	t.Helper()
	var dcs []replicatest.Datacenter
	for _, dc := range slices.Sorted(maps.Keys(rf)) { // the ring's layout follows their order
		dcs = append(dcs, replicatest.Datacenter{Name: dc, Racks: 3, Nodes: 5})
	}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: dcs,
		Replication: consistency.NetworkTopology(rf),
		Seed:        7,
		Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}

// keyReplicasByDC lists key's replicas per datacenter, in ring order.
func keyReplicasByDC(t *testing.T, cl *replicatest.Cluster) map[string][]string {
	t.Helper()
	reps, _, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	out := map[string][]string{}
	for _, r := range reps {
		ep := r.Endpoint()
		out[ep.Datacenter] = append(out[ep.Datacenter], ep.ID)
	}
	return out
}

// downScenario marks some of key's replicas down and says which.
type downScenario struct {
	name string
	down func(byDC map[string][]string) []string
}

var downScenarios = []downScenario{
	{"all-up", func(map[string][]string) []string { return nil }},
	{"one-down-dc1", func(b map[string][]string) []string { return b["dc1"][:min(1, len(b["dc1"]))] }},
	{"all-but-one-down-dc1", func(b map[string][]string) []string { return b["dc1"][:max(0, len(b["dc1"])-1)] }},
	{"dc1-down", func(b map[string][]string) []string { return b["dc1"] }},
	{"dc2-down", func(b map[string][]string) []string { return b["dc2"] }},
	{"two-down-dc2-one-dc3", func(b map[string][]string) []string {
		return append(append([]string(nil), b["dc2"][:min(2, len(b["dc2"]))]...), b["dc3"][:min(1, len(b["dc3"]))]...)
	}},
}

func liveCounts(byDC map[string][]string, down []string) map[string]int {
	live := map[string]int{}
	for dc, ids := range byDC {
		for _, id := range ids {
			if !strings.Contains(strings.Join(down, " ")+" ", id+" ") {
				live[dc]++
			}
		}
	}
	return live
}

// TestMultiDatacenterPlansMatchCassandra reads key at every level, with
// the local datacenter set, unknown or unset, with replicas down, under
// NEVER and ALWAYS, and checks the coordinator against the model of
// Cassandra's ReplicaPlans.forRead and assureSufficientLiveReplicas in
// cassref_test.go: the UnavailableError's numbers, or how many replicas
// the first round contacted, in the local datacenter and in each
// datacenter at EACH_QUORUM.
func TestMultiDatacenterPlansMatchCassandra(t *testing.T) {
	for _, rf := range sweepRFs() {
		for _, localDC := range []string{"dc1", "", "dc9"} {
			for _, sr := range []string{"NEVER", "ALWAYS"} {
				t.Run(fmt.Sprintf("%v/local=%q/%s", rf, localDC, sr), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) { sweepPlans(t, rf, localDC, sr) })
				})
			}
		}
	}
}

func sweepPlans(t *testing.T, rf cassRF, localDC, sr string) {
	cl := newSweepCluster(t, rf)
	e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: localDC, DefaultTable: policy(t, sr),
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
	eachDownScenario(t, cl, func(name string, live map[string]int) {
		for _, l := range sweepLevels {
			what := fmt.Sprintf("%s %v live %v", name, l, live)
			res, _, err := e.read(l)
			checkPlan(t, what, rf, localDC, sr == "ALWAYS", live, l, res, err)
		}
	})
}

// eachDownScenario marks each of downScenarios' replicas of key down in
// cl, calls f with the scenario's name and the live replicas per
// datacenter, and brings them back up.
func eachDownScenario(t *testing.T, cl *replicatest.Cluster, f func(name string, live map[string]int)) {
	t.Helper()
	byDC := keyReplicasByDC(t, cl)
	for _, sc := range downScenarios {
		down := sc.down(byDC)
		for _, id := range down {
			require.NoError(t, cl.SetAlive(id, false))
		}
		f(sc.name, liveCounts(byDC, down))
		for _, id := range down {
			require.NoError(t, cl.SetAlive(id, true))
		}
	}
}

func checkPlan(t *testing.T, what string, rf cassRF, localDC string, always bool, live map[string]int,
	l consistency.Level, res coordinator.Result, err error) {
	t.Helper()
	if l.IsDatacenterLocal() && localDC == "" {
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, what) // documented: LocalDatacenter unset
		return
	}
	if want := cassUnavailable(l, rf, localDC, live); want != nil {
		var u *consistency.UnavailableError
		if assert.ErrorAs(t, err, &u, what) {
			assert.Equal(t, *want, *u, what)
		}
		return
	}
	if !assert.NoError(t, err, what) {
		return
	}
	assert.Equal(t, cassBlockFor(l, rf, localDC), res.Trace.BlockFor, what)
	wantLocal, wantTotal, wantPerDC := cassContacts(l, rf, localDC, live, always)
	perDC := map[string]int{}
	total := 0
	for _, rt := range res.Trace.Requests {
		if rt.Phase == coordinator.PhaseInitial || rt.Phase == coordinator.PhaseSpeculative {
			perDC[dcOf(rt.Endpoint)]++
			total++
		}
	}
	assert.Equal(t, wantTotal, total, "%s: contacts %v", what, perDC)
	assert.Equal(t, wantLocal, perDC[localDC], "%s: local contacts %v", what, perDC)
	for dc, n := range wantPerDC {
		assert.Equal(t, n, perDC[dc], "%s: contacts in %s", what, dc)
	}
	if l.IsDatacenterLocal() {
		assert.Equal(t, total, perDC[localDC], "%s: a DC-local read left %s: %v", what, localDC, perDC)
	}
}

// dcOf is the datacenter of a replicatest node ID ("dc2-r1-n4").
func dcOf(id string) string { return id[:strings.IndexByte(id, '-')] }
