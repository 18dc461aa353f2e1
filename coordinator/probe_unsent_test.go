package coordinator_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A read that claims a replica's probe while it plans and then sends
// nothing, as when a replica's MaxDigestVersion panics or the caller's
// context ends during planning, leaves the probe to the next read: it kept
// the claim, and the healed A, asked at ONE only when probed, waited a
// whole further ResetInterval (found by review).
func TestAProbeClaimedAndNeverSentIsReleased(t *testing.T) {
	for _, panics := range []bool{true, false} {
		name := "context ends while planning"
		if panics {
			name = "MaxDigestVersion panics"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				var once atomic.Pointer[func([]replica.Replica) []replica.Replica] // for the next Locate
				locate := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
					reps, repl, err := cl.Locate(table, k)
					if f := once.Swap(nil); f != nil {
						reps = (*f)(slices.Clone(reps)) // the cluster's slice is shared
					}
					return reps, repl, err
				})
				e := newEnvOn(t, cl, coordinator.Config{Locator: locate, DefaultTable: policy(t, "NEVER"),
					Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
				expireDemotedA(t, e, ms(1)) // A heals

				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				f := func(reps []replica.Replica) []replica.Replica {
					if panics {
						reps[2] = panickyVersion{reps[2]} // C's
					} else {
						cancel() // after Read looked at ctx, before it sends
					}
					return reps
				}
				once.Store(&f)
				res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				require.Error(t, err)
				require.Empty(t, res.Trace.Requests, "the read sent nothing")

				res, _, err = e.read(consistency.One)
				require.NoError(t, err)
				assert.Equal(t, A, firstContact(t, res), "the next read probes A")
			})
		})
	}
}

// expireDemotedA scores A at 10 ms, and B and C at 1 ms, by a read at ALL,
// then gives A latency d and waits out its score (a ResetInterval of 500
// ms): the next read at ONE claims A's probe.
func expireDemotedA(t *testing.T, e *env, d time.Duration) {
	t.Helper()
	e.behave(t, A, constant(ms(10)))
	_, _, err := e.read(consistency.All)
	require.NoError(t, err)
	e.behave(t, A, constant(d))
	time.Sleep(ms(501))
}
