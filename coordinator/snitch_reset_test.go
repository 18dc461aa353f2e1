package coordinator_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// ResetInterval forgets a replica's score: once the probe of a replica that
// was slow and has healed answers, the replica ranks by that answer, not by
// the stale score the probe's sample was blended into.
func TestSnitchResetForgetsTheStaleScore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := healedBehindB(t)
		res, _, _ := e.read(consistency.One)
		require.Equal(t, A, firstContact(t, res), "the probe")
		for i := range 3 {
			res, _, _ = e.read(consistency.One)
			assert.Equal(t, A, firstContact(t, res), "read %d after the probe: A answered in 1 ms, as fast as B, and is first in the static order", i)
		}
	})
}

// healedBehindB is newEnv read at ONE with a ResetInterval of 500 ms, with
// A scored slow (10 ms) behind B, then healed, and its score expired.
func healedBehindB(t *testing.T) *env {
	e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
		Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
	e.behave(t, A, constant(ms(10)))
	_, _, err := e.read(consistency.All) // A scored at 10 ms, B and C at 1 ms
	require.NoError(t, err)
	res, _, _ := e.read(consistency.One)
	require.Equal(t, B, firstContact(t, res))
	e.behave(t, A, constant(ms(1))) // A heals
	time.Sleep(ms(501))             // and its score expires
	return e
}

// A replica that failed since its last answer is probed by one read once
// its score expires, not by every read in flight while the probe is out:
// the others keep ranking it behind the replicas that have not missed.
func TestSnitchProbeOfAFailingReplicaIsOneRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		for range 5 {
			_, _, err := e.read(consistency.All) // every replica scored at 1 ms
			require.NoError(t, err)
		}
		settle()
		require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(ms(20), nil)))
		_, _, err := e.read(consistency.One) // A fails: it has missed
		require.Error(t, err)
		settle()
		time.Sleep(ms(501))

		before := e.stats(A).Reads
		var failed atomic.Int64
		var wg sync.WaitGroup
		for range 100 { // ten reads out at a time, over the probe's 20 ms
			wg.Go(func() {
				if _, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One}); err != nil {
					failed.Add(1)
				}
			})
			time.Sleep(100 * time.Microsecond)
		}
		wg.Wait()
		assert.Equal(t, int64(1), e.stats(A).Reads-before, "reads that asked A")
		assert.Equal(t, int64(1), failed.Load(), "reads that failed")
	})
}

// A replica never measured that loses its first race (ALWAYS's extra
// request, here) has no usual latency the read waited twice of: it is not
// a miss, and the replica keeps its rank instead of being shut out until
// its score expires.
func TestSnitchFirstCancelledRequestIsNotAMiss(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS"),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		e.behave(t, B, constant(ms(1.05))) // within the badness margin of A and C
		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		require.Equal(t, []string{A, B}, []string{res.Trace.Requests[0].Endpoint, res.Trace.Requests[1].Endpoint})
		settle()
		for _, r := range e.c.Metrics().Replicas {
			if r.Endpoint.ID == B {
				assert.Equal(t, int64(0), r.Misses, "B was cancelled 1 ms in, before it had a usual latency")
			}
		}
		asked := 0
		for range 20 {
			res, _, err := e.read(consistency.One)
			require.NoError(t, err)
			for _, rt := range res.Trace.Requests {
				if rt.Endpoint == B {
					asked++
				}
			}
			settle()
		}
		assert.Positive(t, asked, "reads that asked B, as fast as the others")
	})
}
