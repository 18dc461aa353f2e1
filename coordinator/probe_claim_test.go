package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A replica that missed is probed, once its score is older than
// Snitch.ResetInterval, by a read that asks it: one that claims the probe
// and does not ask puts it off by an interval. The snitch ranks each
// datacenter on its own, and ranked the remote one, claiming its probe,
// for reads that contact none of it (TWO over 3+3, local dc1): with reads
// at TWO frequent, the QUORUM reads that would contact the healed d2n1
// never found it expired, and over 4 s (8 intervals) it was never asked
// again (found by review).
func TestAReadThatDoesNotContactAReplicaDoesNotClaimItsProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedRemoteReplica(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		before := e.stats(d2n1).Reads
		for i := range 400 { // 4 s: a read at TWO every 10 ms, one at QUORUM every 100 ms
			time.Sleep(ms(10))
			_, _, err := e.read(consistency.Two)
			require.NoError(t, err)
			if i%10 == 5 {
				_, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
			}
		}
		settle()
		assert.Positive(t, e.stats(d2n1).Reads-before, "the healed d2n1 is probed by a read that asks it")
	})
}

// A read at THREE over 3+3 from dc1 reaches dc2 only by its speculative
// request: ALWAYS's extra one, or a hedge when dc1's third replica is
// slow. That request claims dc2's probe, which planning does not: the
// healed d2n1 was never asked again while d2n2 took every request there
// (found by review).
func TestASpeculativeRequestToTheRemoteGroupClaimsItsProbe(t *testing.T) {
	for _, pol := range []string{"ALWAYS", "3ms"} {
		t.Run(pol, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := healedRemoteReplica(t, coordinator.Config{DefaultTable: policy(t, pol),
					HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				e.behave(t, d1n3, constant(ms(10))) // every read's hedge fires at 3 ms
				before, remote := e.stats(d2n1).Reads, 0
				for range 400 { // 8 s, a read at THREE every 20 ms
					time.Sleep(ms(20))
					res, _, err := e.read(consistency.Three)
					require.NoError(t, err)
					remote += requestsToDC2(res)
				}
				settle()
				require.Equal(t, 400, remote, "every read's speculative request went to dc2")
				assert.Positive(t, e.stats(d2n1).Reads-before, "the healed d2n1 is probed by a read that contacts dc2")
			})
		})
	}
}

// A speculative request the budget holds back claims no probe: under
// ALWAYS with no budget, reads at THREE send nothing to dc2, and the
// QUORUM reads among them, which do, must find the healed d2n1's probe
// unclaimed (found by review, when planning claimed it for ALWAYS).
func TestASpeculativeRequestHeldBackClaimsNoProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedRemoteReplica(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS"),
			HedgeBudget: coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}})
		before, remoteAtThree := e.stats(d2n1).Reads, 0
		for i := range 400 { // 4 s: THREE every 10 ms, QUORUM every 100 ms
			time.Sleep(ms(10))
			res, _, err := e.read(consistency.Three)
			require.NoError(t, err)
			remoteAtThree += requestsToDC2(res)
			if i%10 == 5 {
				_, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
			}
		}
		settle()
		require.Zero(t, remoteAtThree, "no read at THREE contacted dc2: its extra was held back")
		assert.Positive(t, e.stats(d2n1).Reads-before, "the healed d2n1 is probed by a read that asks it")
	})
}

// requestsToDC2 counts the requests a read sent to dc2's replicas.
func requestsToDC2(res coordinator.Result) int {
	n := 0
	for _, rt := range res.Trace.Requests {
		if rt.Endpoint == d2n1 || rt.Endpoint == d2n2 || rt.Endpoint == d2n3 {
			n++
		}
	}
	return n
}

// healedRemoteReplica returns two datacenters of three, local dc1, with a
// ResetInterval of 500 ms, whose d2n1 missed a read and healed since.
func healedRemoteReplica(t *testing.T, cfg coordinator.Config) *env {
	cfg.Snitch = coordinator.SnitchConfig{ResetInterval: ms(500)}
	e := newTwoDCs(t, cfg)
	_, _, err := e.read(consistency.All) // every replica scored
	require.NoError(t, err)
	require.NoError(t, e.replica(d2n1).SetFault(replicatest.ErrorAfter(ms(1), nil)))
	_, _, err = e.read(consistency.All) // d2n1 misses
	require.Error(t, err)
	require.NoError(t, e.replica(d2n1).SetFault(replicatest.Fault{})) // and heals
	settle()
	return e
}

// A read whose context has already ended sends nothing, so it must not
// claim the probe of a replica whose score expired either: it claimed it,
// and the healed A, asked at ONE only when probed, waited another interval
// (found by review).
func TestAReadThatSendsNothingDoesNotClaimAProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedBehindB(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		require.ErrorIs(t, err, context.Canceled)
		require.Empty(t, res.Trace.Requests)

		res, _, err = e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, A, firstContact(t, res), "the first read that sends anything probes A")
	})
}

// Only a speculative request to the remote group claims that group's probe:
// ALWAYS's extra request of a read at TWO over 3+3 goes to dc1's third
// replica, and must leave the expired d2n1's probe to the QUORUM read after
// it, which contacts dc2 (a mutant that let a local target claim it put
// d2n1 off by another interval). The TWO read's loser misses; a read at
// THREE first makes its score fresh, or the QUORUM read would rightly
// probe it instead, one probe a read.
func TestALocalSpeculativeRequestLeavesTheRemoteProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedRemoteReplica(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		time.Sleep(ms(600))                    // every score expires
		_, _, err := e.read(consistency.Three) // dc1's alone, fresh again
		require.NoError(t, err)
		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "ALWAYS")))
		res, _, err := e.read(consistency.Two)
		require.NoError(t, err)
		require.Len(t, res.Trace.Requests, 3, "two contacts and ALWAYS's extra")
		require.Zero(t, requestsToDC2(res), "the extra went to dc1's third replica")
		before := e.stats(d2n1).Reads
		_, _, err = e.read(consistency.Quorum)
		require.NoError(t, err)
		settle()
		assert.Equal(t, before+1, e.stats(d2n1).Reads, "the QUORUM read probes the healed d2n1")
	})
}
