package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// locatorOrder is a set-up in which a replica at its backlog cap stays a
// contact: the locator's order (ranked, one at its cap comes last and is
// no contact to refuse), and a policy that may stand in for it.
func locatorOrder(t *testing.T) coordinator.Config {
	t.Helper()
	return coordinator.Config{
		DefaultTable: policy(t, "5ms"), ReadTimeout: ms(50), MaxAbandonedPerReplica: 1,
		Snitch: coordinator.SnitchConfig{Disabled: true}, HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
	}
}

// A request refused for its replica's backlog is replaced at once by a
// free replica, at EACH_QUORUM by one of the refused one's datacenter,
// whose quorum no other datacenter's answers make up; one refused in each
// datacenter is replaced in each. EACH_QUORUM, which never hedges, did not
// replace it: with d2n1 (or d1n1) capped the read failed at once with
// ReadFailureError (0 received, 1 failure, 4 required) while d2n3 (d1n3)
// sat idle, where QUORUM and LOCAL_QUORUM replaced it. ReadMany reads each
// key the same way. (A replacement at EACH_QUORUM asks for what the
// refused request asked: it sends only what a healthy read would.)
func TestARefusedRequestIsReplacedInItsDatacenter(t *testing.T) {
	for _, c := range []struct {
		level  consistency.Level
		capped []string
	}{
		{consistency.Quorum, []string{d1n1}}, {consistency.Quorum, []string{d2n1}},
		{consistency.LocalQuorum, []string{d1n1}}, {consistency.LocalOne, []string{d1n1}},
		{consistency.EachQuorum, []string{d1n1}}, {consistency.EachQuorum, []string{d2n1}},
		{consistency.EachQuorum, []string{d1n1, d2n1}},
	} {
		t.Run(fmt.Sprintf("%v/%v", c.level, c.capped), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newTwoDCs(t, locatorOrder(t))
				hangAtCap(t, e, c.capped...)
				defer drain()
				before := e.totalReads()
				res, took, err := e.read(c.level)
				require.NoError(t, err, "%s", res.Trace)
				assert.Equal(t, ms(1), took, "replaced at once")
				assert.Equal(t, len(c.capped), refusedIn(res.Trace), "%s", res.Trace)
				settle()
				assert.Equal(t, int64(res.Trace.BlockFor), e.totalReads()-before, "as many requests sent as a healthy read sends")
				tm, _ := e.c.TableMetrics(tbl)
				assert.Equal(t, int64(len(c.capped)), tm.SpeculativeRetries, "each replacement counted")
				assert.Equal(t, int64(len(c.capped)), tm.HedgeWins, "each replacement's answer used")
				assert.Zero(t, tm.FailedSpeculations)
				var to []string
				for _, rt := range res.Trace.Requests {
					if rt.Phase == coordinator.PhaseSpeculative {
						if to == nil { // the first of several is the one traced (sendHedge)
							assert.Equal(t, rt.Endpoint, res.Trace.Hedge.To, "%s", res.Trace)
						}
						to = append(to, dcOf(rt.Endpoint))
						if c.level == consistency.EachQuorum {
							assert.Equal(t, rt.Endpoint == d1n3, rt.Kind == coordinator.KindData, "the refused request's kind")
						}
					}
				}
				if c.level != consistency.Quorum {
					var want []string
					for _, id := range c.capped {
						want = append(want, dcOf(id))
					}
					assert.Equal(t, want, to, "replaced in the refused requests' datacenters\n%s", res.Trace)
				}
				assert.True(t, res.Trace.Hedge.Fired && res.Trace.Hedge.Won, "%s", res.Trace)

				rs, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: c.level})
				require.NoError(t, err)
				assert.NoError(t, rs[0].Err, "ReadMany reads the key as Read does\n%s", rs[0].Result.Trace)
			})
		})
	}
}

// Under a simple replication EACH_QUORUM is QUORUM over one group: the
// refused request is replaced by any free replica.
func TestARefusedRequestIsReplacedAtEachQuorumUnderSimpleReplication(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, locatorOrder(t))
		hangAtCap(t, e, A)
		defer drain()
		res, took, err := e.read(consistency.EachQuorum)
		require.NoError(t, err, "%s", res.Trace)
		assert.Equal(t, ms(1), took)
		assert.Equal(t, 1, refusedIn(res.Trace))
		assert.Equal(t, C, res.Trace.Hedge.To)
	})
}

// With no free replica left in the refused request's datacenter the read
// fails at once with the numbers it has, at EACH_QUORUM as at the DC-local
// levels when the local datacenter is short: none asked in another
// datacenter, whose answers cannot make up for it, and the missing
// candidate counted; whether ranking puts the capped replicas last or
// not, as the datacenter cannot do without them.
func TestARefusedRequestWithNoFreeReplicaInItsDatacenterFails(t *testing.T) {
	for _, c := range []struct {
		level  consistency.Level
		capped []string // the first is a contact, the rest its datacenter's spares
	}{
		{consistency.EachQuorum, []string{d2n1, d2n3}},
		{consistency.LocalQuorum, []string{d1n2, d1n3}},
		{consistency.LocalOne, []string{d1n1, d1n2, d1n3}},
	} {
		for _, ranked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/ranked=%v", c.level, ranked), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					cfg := locatorOrder(t)
					cfg.Snitch.Disabled = !ranked
					e := newTwoDCs(t, cfg)
					hangAtCap(t, e, c.capped...)
					defer drain()
					before := e.totalReads()
					res, took, err := e.read(c.level)
					var f *consistency.ReadFailureError
					require.ErrorAs(t, err, &f, "%s", res.Trace)
					assert.Zero(t, took)
					assert.Equal(t, consistency.ReadFailureError{Level: c.level, BlockFor: res.Trace.BlockFor, Failures: 1, Reasons: f.Reasons}, *f)
					assert.Contains(t, f.Reasons, c.capped[0])
					assert.Equal(t, coordinator.NoCandidate, res.Trace.Hedge.Suppressed, "%s", res.Trace)
					tm, _ := e.c.TableMetrics(tbl)
					assert.Equal(t, int64(1), tm.NoCandidate)
					settle()
					assert.Equal(t, int64(res.Trace.BlockFor-1), e.totalReads()-before, "only the contacts not refused were sent")
				})
			})
		}
	}
}

// A data request of the reconcile round refused for its replica's backlog
// (it reached its cap after answering the first round) is replaced by one
// to a replica not yet asked, at EACH_QUORUM in the refused one's
// datacenter, whose version no other datacenter's makes up for. d1n1 alone
// holds v2. Before, EACH_QUORUM's reconcile round never speculated, so the
// read failed at 1 ms with ReadFailureError (1 received, 1 failure, 4
// required).
func TestARefusedReconcileReadIsReplacedInItsDatacenter(t *testing.T) {
	for _, c := range []struct {
		level  consistency.Level
		capped string
	}{
		{consistency.Quorum, d2n1}, {consistency.LocalQuorum, d1n2},
		{consistency.EachQuorum, d2n1}, {consistency.EachQuorum, d1n2},
	} {
		t.Run(fmt.Sprintf("%v/%v", c.level, c.capped), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newTwoDCsHanging(t, locatorOrder(t), c.capped)
				defer drain()
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1))

				res, err := readCappingMidway(t, e, c.level, ms(0.5))
				require.NoError(t, err, "%s", res.Trace)
				assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
				assert.Equal(t, 1, refusedIn(res.Trace), "%s", res.Trace)
				h := res.Trace.ReconcileHedge
				require.True(t, h.Fired, "%s", res.Trace)
				if c.level != consistency.Quorum {
					assert.Equal(t, dcOf(c.capped), dcOf(h.To), "%s", res.Trace)
				}
				tm, _ := e.c.TableMetrics(tbl)
				assert.Equal(t, int64(1), tm.ReconcileSpeculations)
			})
		})
	}
}

// A digest-first read's data request refused for its replica's backlog
// (the fastest digest, capped after it was asked) is replaced by one to
// the next fastest, at EACH_QUORUM too, whose quorums the digests made:
// the data may come from any datacenter. Before, EACH_QUORUM failed at
// 2.1 ms with ReadFailureError (4 digests received, 1 failure).
func TestARefusedDigestFirstDataRequestIsReplaced(t *testing.T) {
	for _, level := range []consistency.Level{consistency.Quorum, consistency.LocalQuorum, consistency.EachQuorum} {
		t.Run(level.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := locatorOrder(t)
				cfg.DefaultTable.Strategy = coordinator.DigestFirst
				e := newTwoDCsHanging(t, cfg, d1n1)
				defer drain()
				for id, lat := range map[string]float64{d1n1: 1, d1n2: 1.1, d1n3: 1.2, d2n1: 2, d2n2: 2.1, d2n3: 2.2} {
					e.behave(t, id, constant(ms(lat)))
				}
				res, err := readCappingMidway(t, e, level, ms(0.5))
				require.NoError(t, err, "%s", res.Trace)
				assert.Equal(t, 1, refusedIn(res.Trace), "%s", res.Trace)
				assert.Equal(t, d1n2, res.Trace.Hedge.To, "%s", res.Trace)
			})
		})
	}
}

// A digest-first read's digest round asks every candidate, so, as at ALL,
// it has none to spare: a request of it refused unsent is no speculation
// that found no candidate (mayStandIn: not digest-first's digest round). At
// EACH_QUORUM with two of dc2's three capped the read fails at once, and
// books and counts no NoCandidate.
func TestADigestRoundShortOfAQuorumBooksNoMissingCandidate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := locatorOrder(t)
		cfg.DefaultTable.Strategy = coordinator.DigestFirst
		e := newTwoDCs(t, cfg)
		hangAtCap(t, e, d2n1, d2n3)
		defer drain()
		res, _, err := e.read(consistency.EachQuorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f, "%s", res.Trace)
		assert.Equal(t, coordinator.NotSuppressed, res.Trace.Hedge.Suppressed, "%s", res.Trace)
		tm, _ := e.c.TableMetrics(tbl)
		assert.Zero(t, tm.NoCandidate)
		settle()
	})
}
