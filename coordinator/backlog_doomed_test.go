package coordinator_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// doomedCase is a read at level over cluster whose capped replicas are at
// their backlog cap: its requests to refused are refused unsent, the
// reasons of its failure (blockFor and recvd its other numbers), and too
// few free replicas are left, idle, to stand in for them, unless completes.
type doomedCase struct {
	level           consistency.Level
	cluster         func(*testing.T) *replicatest.Cluster
	capped, refused []string
	idle            []string
	blockFor, recvd int
	completes       bool // the idle replicas can make up what the round lacks
}

func (c doomedCase) name() string { return fmt.Sprintf("%v/%v", c.level, c.capped) }

// assertDoomedFailure checks that err is the ReadFailureError of c, its
// numbers those of the requests refused, and that the trace shows no
// speculative request, the round's action suppressed for want of
// candidates (h).
func assertDoomedFailure(t *testing.T, c doomedCase, res coordinator.Result, err error, h coordinator.HedgeTrace) {
	t.Helper()
	var f *consistency.ReadFailureError
	require.ErrorAs(t, err, &f, "%s", res.Trace)
	assert.Equal(t, consistency.ReadFailureError{Level: c.level, BlockFor: c.blockFor, Received: c.recvd,
		Failures: len(c.refused), DataPresent: c.recvd > 0, Reasons: f.Reasons}, *f, "%s", res.Trace)
	assert.ElementsMatch(t, c.refused, slices.Collect(maps.Keys(f.Reasons)))
	assert.Equal(t, len(c.refused), refusedIn(res.Trace), "%s", res.Trace)
	assert.Empty(t, speculativeTo(res.Trace), "no stand-in sent\n%s", res.Trace)
	assert.False(t, h.Fired, "%s", res.Trace)
	assert.Equal(t, coordinator.NoCandidate, h.Suppressed, "%s", res.Trace)
}

// metricsDelta is what the table's counters gained since before.
func metricsDelta(t *testing.T, e *env, before coordinator.TableMetrics) map[string]int64 {
	t.Helper()
	after, ok := e.c.TableMetrics(tbl)
	require.True(t, ok)
	was := maps.Collect(before.Counters())
	d := map[string]int64{}
	for name, n := range after.Counters() {
		if n != was[name] {
			d[name] = n - was[name]
		}
	}
	return d
}

// traceCounters is what the coordinator counts for a read, from its trace
// and error (see expectFromTrace), without the zeros.
func traceCounters(level consistency.Level, tr coordinator.Trace, err error) map[string]int64 {
	var want coordinator.TableMetrics
	expectFromTrace(&want, level, tr, err)
	m := map[string]int64{}
	for name, n := range want.Counters() {
		if n != 0 {
			m[name] = n
		}
	}
	return m
}

// When the requests out and every free replica cannot make up the answers
// a round lacks after requests refused for their replicas' backlog, no
// stand-in is sent: the read fails at once, as Cassandra answers
// Unavailable without sending anything when too few replicas are live.
// Stand-ins went to the free replicas anyway (C for QUORUM over A, B, C;
// E over five with D capped too, at LOCAL_QUORUM as well; d2n3 for
// EACH_QUORUM's dc2, and d1n3 for its dc1 too though dc2 could not make
// its quorum) and the read then failed at once with the same
// error: load on healthy replicas for nothing. Under ALWAYS the extra
// request went out too, spending the shared budget.
func TestNoStandInWhenTooFewFreeReplicasAreLeft(t *testing.T) {
	for _, c := range []doomedCase{
		{level: consistency.Quorum, cluster: threeNodes, capped: []string{A, B}, refused: []string{A, B}, idle: []string{C}, blockFor: 2},
		{level: consistency.Quorum, cluster: fiveNodes, capped: []string{A, B, D}, refused: []string{A, B}, idle: []string{E}, blockFor: 3},
		{level: consistency.LocalQuorum, cluster: fiveThreeCluster, capped: []string{A, B, D}, refused: []string{A, B},
			idle: []string{E}, blockFor: 3},
		{level: consistency.EachQuorum, cluster: twoDCsCluster, capped: []string{d2n1, d2n2}, refused: []string{d2n1, d2n2},
			idle: []string{d2n3}, blockFor: 4},
		{level: consistency.EachQuorum, cluster: twoDCsCluster, capped: []string{d1n1, d2n1, d2n2}, refused: []string{d1n1, d2n1, d2n2},
			idle: []string{d1n3, d2n3}, blockFor: 4},
	} {
		for _, pol := range []string{"5ms", "ALWAYS"} {
			t.Run(c.name()+"/"+pol, func(t *testing.T) { testNoStandIn(t, c, pol) })
		}
	}
}

func testNoStandIn(t *testing.T, c doomedCase, pol string) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{MinPerSecond: 1})
		require.NoError(t, err)
		obs := &repairRecorder{}
		cfg := locatorOrder(t)
		cfg.LocalDatacenter, cfg.Observer, cfg.Budget, cfg.DefaultTable = "dc1", obs, shared, policy(t, pol)
		e := newEnvOn(t, c.cluster(t), cfg)
		hangAtCap(t, e, c.capped...)
		defer drain()
		hedged, _ := obs.snapshot()
		before := e.totalReads()
		idleBefore := map[string]int64{}
		for _, id := range c.idle {
			idleBefore[id] = e.stats(id).Reads
		}
		tmBefore, _ := e.c.TableMetrics(tbl)
		budget := shared.Available(time.Now())

		res, took, err := e.read(c.level)
		assertDoomedFailure(t, c, res, err, res.Trace.Hedge)
		assert.Zero(t, took, "failed at once")
		settle()
		for _, id := range c.idle {
			assert.Equal(t, idleBefore[id], e.stats(id).Reads, "%s was sent nothing\n%s", id, res.Trace)
		}
		assert.Equal(t, int64(len(res.Trace.Requests)-len(c.refused)), e.totalReads()-before, "only the contacts not refused were sent")
		assert.Equal(t, budget, shared.Available(time.Now()), "nothing drawn from the budgets, or all refunded")
		hedges, _ := obs.snapshot()
		assert.Empty(t, hedges[len(hedged):], "no hedge observed")
		d := metricsDelta(t, e, tmBefore)
		assert.Equal(t, traceCounters(c.level, res.Trace, err), d, "the counters say what the trace says")
		assert.Equal(t, int64(1), d["no_candidate"])
		assert.Equal(t, int64(1), d["failures"])
	})
}

// A reconcile round whose data requests are refused for their replicas'
// backlog (capped after they answered the first round, with E capped too)
// has one free replica, D, for the two versions it lacks at QUORUM over
// five; at EACH_QUORUM dc2 has d2n3 for the two it lacks. A holds v2
// (d1n1 at EACH_QUORUM). No stand-in is sent, and the read fails at
// 1 ms; one went to D (d2n3), and the read failed at 1 ms all the same.
func TestNoReconcileStandInWhenTooFewFreeReplicasAreLeft(t *testing.T) {
	for _, c := range []doomedCase{
		{level: consistency.Quorum, cluster: fiveNodes, capped: []string{B, C, E}, refused: []string{B, C}, idle: []string{D},
			blockFor: 3, recvd: 1},
		{level: consistency.EachQuorum, cluster: twoDCsCluster, capped: []string{d2n1, d2n2}, refused: []string{d2n1, d2n2},
			idle: []string{d2n3}, blockFor: 4, recvd: 1},
	} {
		t.Run(c.name(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newHangingOn(t, c.cluster(t), locatorOrder(t), c.capped...)
				defer drain()
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A)) // A is d1n1
				tmBefore, _ := e.c.TableMetrics(tbl)

				res, err := readCappingMidway(t, e, c.level, ms(0.5))
				assertDoomedFailure(t, c, res, err, res.Trace.ReconcileHedge)
				assert.True(t, res.Trace.DigestMismatch)
				assert.Equal(t, ms(1), res.Trace.Duration, "failed as the reconcile round started")
				settle()
				for _, id := range c.idle {
					assert.Equal(t, int64(1), e.stats(id).Reads, "%s was sent only the capping read's request\n%s", id, res.Trace)
				}
				d := metricsDelta(t, e, tmBefore)
				assert.Zero(t, d["reconcile_speculations"])
				assert.Equal(t, int64(1), d["no_candidate"], "the capping read at ALL counts none")
				assert.Equal(t, int64(1), d["failures"])
			})
		})
	}
}

// A BLOCKING repair whose writes to the stale replicas are refused for
// their backlog (capped after their reconcile reads, at 1.5 ms) stands
// in with additional writes to the free replicas, as many as were
// refused, when they can make up the holders it lacks: at QUORUM over
// five, B and C stale, D and E. With E capped too, D alone cannot make up
// two (nor can d2n3 make up dc2's two at EACH_QUORUM): no additional
// write is sent, and the read fails at 2 ms; one went to D (d2n3), and the
// read failed at 2 ms all the same.
func TestNoStandInWriteWhenTooFewFreeReplicasAreLeft(t *testing.T) {
	for _, c := range []doomedCase{
		{level: consistency.Quorum, cluster: fiveNodes, capped: []string{B, C, E}, refused: []string{B, C}, idle: []string{D},
			blockFor: 3, recvd: 1},
		{level: consistency.EachQuorum, cluster: twoDCsCluster, capped: []string{d2n1, d2n2}, refused: []string{d2n1, d2n2},
			idle: []string{d2n3}, blockFor: 4, recvd: 2},
		{level: consistency.Quorum, cluster: fiveNodes, capped: []string{B, C}, refused: []string{B, C}, idle: []string{D, E},
			completes: true},
	} {
		t.Run(c.name(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				opts := policy(t, "NEVER")
				opts.ReadRepair = repair.Blocking
				opts.AdditionalWritePolicy = policy(t, "50ms").SpeculativeRetry
				e := newHangingOn(t, c.cluster(t), coordinator.Config{ReadTimeout: ms(100), MaxAbandonedPerReplica: 1,
					Snitch: coordinator.SnitchConfig{Disabled: true}, HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
					DefaultTable: opts}, c.capped...)
				defer drain()
				var fresh []string // all but the stale, refused ones
				for _, r := range e.cluster.Replicas() {
					if id := r.Endpoint().ID; !slices.Contains(c.refused, id) {
						fresh = append(fresh, id)
					}
				}
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), fresh...))
				tmBefore, _ := e.c.TableMetrics(tbl)

				res, err := readCappingMidway(t, e, c.level, ms(1.5))
				require.True(t, res.Trace.DigestMismatch, "%s", res.Trace)
				settle()
				d := metricsDelta(t, e, tmBefore)
				if c.completes {
					require.NoError(t, err, "%s", res.Trace)
					assert.Equal(t, len(c.refused), refusedIn(res.Trace), "%s", res.Trace)
					assert.Equal(t, c.idle, additionalTargets(res.Trace), "one stand-in for each refused write")
					assert.Equal(t, int64(2), d["additional_writes"])
					return
				}
				assertDoomedFailure(t, c, res, err, res.Trace.AdditionalWrite)
				assert.Equal(t, ms(2), res.Trace.Duration, "failed as the repair round started")
				for _, id := range c.idle {
					assert.Zero(t, e.stats(id).Mutations, "%s was written nothing\n%s", id, res.Trace)
				}
				assert.Zero(t, d["additional_writes"])
				assert.Equal(t, int64(1), d["no_candidate"], "the capping read at ALL counts none")
				assert.Equal(t, int64(1), d["failures"])
				assert.Equal(t, int64(2), d["repairs_sent"])
				assert.Equal(t, int64(2), d["repairs_failed"], "the refused writes")
			})
		})
	}
}
