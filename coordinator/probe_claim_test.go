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
		e := healedRemoteReplica(t, "NEVER")
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

// Under ALWAYS a read at THREE over 3+3 from dc1 sends its extra request
// to dc2 on every read, so it claims dc2's probe: no read claimed it, as
// blockFor alone needs no remote replica, and the healed d2n1 was never
// asked again while d2n2 took every extra request (found by review).
func TestAlwaysExtraRequestToTheRemoteGroupClaimsItsProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedRemoteReplica(t, "ALWAYS")
		before, remote := e.stats(d2n1).Reads, 0
		for range 400 { // 4 s, a read at THREE every 10 ms
			time.Sleep(ms(10))
			res, _, err := e.read(consistency.Three)
			require.NoError(t, err)
			for _, rt := range res.Trace.Requests {
				if rt.Endpoint == d2n1 || rt.Endpoint == d2n2 || rt.Endpoint == d2n3 {
					remote++
				}
			}
		}
		settle()
		require.Equal(t, 400, remote, "every read's extra request went to dc2")
		assert.Positive(t, e.stats(d2n1).Reads-before, "the healed d2n1 is probed by a read that contacts dc2")
	})
}

// healedRemoteReplica returns two datacenters of three, local dc1, under
// the policy given, with an unlimited budget and a ResetInterval of
// 500 ms, whose d2n1 missed a read and healed since.
func healedRemoteReplica(t *testing.T, pol string) *env {
	e := newTwoDCs(t, coordinator.Config{DefaultTable: policy(t, pol),
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
		Snitch:      coordinator.SnitchConfig{ResetInterval: ms(500)}})
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
