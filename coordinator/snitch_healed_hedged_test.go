package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// firstRoundContact reports whether id was sent a first-round request
// that was not a hedge.
func firstRoundContact(tr coordinator.Trace, id string) bool {
	for _, r := range tr.Requests {
		if r.Endpoint == id && !r.Speculative && r.Phase == tr.Requests[0].Phase {
			return true
		}
	}
	return false
}

// A replica slow for 30 s (90 ms, its probe answered just before it heals)
// heals to 1 ms; its peers answer in 40 ms. Without hedges it is probed
// ResetInterval (10 s) after its last answer and is back at once. So it
// must be when the odd hedge reaches it (B takes 70 ms on one request in
// 30, past the 60 ms threshold but not late by B's own 2 × 40 ms, so B
// keeps its rank): each answer dated its score, and moved it only 2 %
// towards 1 ms, so it stayed out until 36 answers had brought the score
// under 44 ms, 85 s here (and more the slower it had been).
func TestAHealedReplicaReachedOnlyByHedgesComesBack(t *testing.T) {
	for _, c := range []struct {
		name   string
		hedged bool
	}{{"no hedges", false}, {"the odd hedge", true}} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "60ms")})
				e.behave(t, A, constant(ms(90)))
				e.behave(t, B, constant(ms(40)))
				e.behave(t, C, constant(ms(40)))
				read := func() coordinator.Trace {
					res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
					require.NoError(t, err)
					return res.Trace
				}
				start := time.Now()
				for {
					tr := read()
					time.Sleep(20 * time.Millisecond)
					if time.Since(start) > 30*time.Second && firstRoundContact(tr, A) {
						break // A's probe just answered, slowly
					}
				}
				// A heals; B stalls briefly now and then from here on.
				e.behave(t, A, constant(ms(1)))
				if c.hedged {
					samples := make([]time.Duration, 30)
					for i := range samples {
						samples[i] = ms(40)
					}
					samples[0] = ms(70)
					e.behave(t, B, replicatest.Behavior{Latency: replicatest.Empirical(samples...)})
				}
				healedAt := time.Now()
				var back time.Duration = -1
				hedgesToA := 0
				for time.Since(healedAt) < 20*time.Minute {
					tr := read()
					if tr.Hedge.Fired && tr.Hedge.To == A {
						hedgesToA++
					}
					if firstRoundContact(tr, A) && back < 0 {
						back = time.Since(healedAt)
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
				t.Logf("A back as a first-round contact after %v (-1: not within 20 min); hedges to A meanwhile: %d", back, hedgesToA)
				require.True(t, back >= 0 && back <= 15*time.Second, "healed A first contacted after %v; hedges to A meanwhile %d", back, hedgesToA)
			})
		})
	}
}
