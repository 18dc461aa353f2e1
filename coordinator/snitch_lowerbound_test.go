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
)

// The lower bound of a request cancelled early becomes the score of a
// replica that had none, provisionally: its first answer replaces it. It
// was averaged into the score at snitchAlpha (2 %) instead, so a replica
// whose first request was cancelled 50 µs in looked fast for dozens of
// answers: C, twice as slow as A and B, took 29 of 40 reads at ONE, and a
// healthy C lost its rank at its first lost race, "more than twice its
// usual latency" of 50 µs (found by review).
func TestSnitchEarlyCancelOfAnUnscoredReplica(t *testing.T) {
	setup := func(t *testing.T, policyName string, cLatency time.Duration, cancelEarly bool) *env {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, policyName),
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		require.NoError(t, e.cluster.SetAlive(C, false)) // C is not read while A and B are scored
		for range 5 {
			_, _, err := e.read(consistency.Two)
			require.NoError(t, err)
		}
		require.NoError(t, e.cluster.SetAlive(C, true))
		e.behave(t, C, constant(cLatency))
		settle()
		if cancelEarly { // a read its caller gives up on 50 µs in (a client timeout, a ReadMany page that filled)
			ctx, cancel := context.WithCancel(context.Background())
			go func() { time.Sleep(50 * time.Microsecond); cancel() }()
			_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			require.ErrorIs(t, err, context.Canceled)
			settle()
		}
		return e
	}
	for _, cancelEarly := range []bool{false, true} {
		name := map[bool]string{false: "unscored", true: "after an early cancel"}[cancelEarly]
		t.Run("slow C looks fast/"+name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := setup(t, "NEVER", ms(2), cancelEarly)
				toC := 0
				for range 40 {
					res, _, err := e.read(consistency.One)
					require.NoError(t, err)
					if firstContact(t, res) == C {
						toC++
					}
					time.Sleep(ms(10))
				}
				assert.LessOrEqual(t, toC, 1, "reads at ONE sent to C, at 2 ms twice as slow as A and B")
			})
		})
		t.Run("healthy C loses its rank/"+name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := setup(t, "ALWAYS", ms(1.05), cancelEarly) // C within the badness margin of A and B
				for range 3 {
					_, _, err := e.read(consistency.One)
					require.NoError(t, err)
					settle()
				}
				for _, r := range e.c.Metrics().Replicas {
					if r.Endpoint.ID == C {
						assert.Zero(t, r.Misses, "C, healthy, lost a race 1 ms in (latency score %v)", r.Latency)
					}
				}
			})
		})
	}
}
