package coordinator_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Replicas at their backlog cap rank behind every other. A and B of five
// hang, ignoring their context, each holding the one abandoned request
// MaxAbandonedPerReplica allows; their scores stay what they were (1 ms,
// no miss: they never return), ahead of the healthy C, D and E's 3 ms.
// Every QUORUM read made A and B its contacts, both were refused unsent,
// the round's one stand-in (none under NEVER) could not complete it, and
// the read failed at once while E was never asked (found by review).
func TestReplicasAtTheirCapRankLast(t *testing.T) {
	for _, pol := range []string{"5ms", "NEVER", "ALWAYS"} {
		t.Run(pol, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnvOn(t, fiveNodes(t), coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 1,
					DefaultTable: policy(t, pol), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				for _, id := range []string{C, D, E} {
					e.behave(t, id, constant(ms(3)))
				}
				_, _, err := e.read(consistency.All) // scores: A, B 1 ms; C, D, E 3 ms
				assert.NoError(t, err)
				settle()
				hangAtCap(t, e, A, B)

				for i := range 10 {
					res, _, err := e.read(consistency.Quorum)
					assert.NoError(t, err, "read %d, while C, D and E are healthy:\n%s", i, res.Trace)
					for _, rt := range res.Trace.Requests {
						assert.NotContains(t, []string{A, B}, rt.Endpoint, "read %d asked a replica at its cap", i)
					}
					settle()
				}
				drain()
			})
		})
	}
}

// Nor do they reorder the others: with A, B and C at their cap, every read
// at ONE went to D (100 ms), not to the idle E (5 ms), as their stale 1 ms
// keys had cut both as never selected, tied in the locator's order (found
// by review).
func TestReplicasAtTheirCapDoNotHideTheFastest(t *testing.T) {
	for _, pol := range []string{"NEVER", "99p"} {
		t.Run(pol, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnvOn(t, fiveNodes(t), coordinator.Config{ReadTimeout: ms(200), MaxAbandonedPerReplica: 1,
					DefaultTable: policy(t, pol), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				e.behave(t, D, constant(ms(100)))
				e.behave(t, E, constant(ms(5)))
				_, _, err := e.read(consistency.All) // scores: A, B, C 1 ms; D 100 ms; E 5 ms
				assert.NoError(t, err)
				settle()
				hangAtCap(t, e, A, B, C)
				for i := range 5 {
					res, took, err := e.read(consistency.One)
					assert.NoError(t, err)
					if assert.NotEmpty(t, res.Trace.Requests) {
						assert.Equal(t, E, res.Trace.Requests[0].Endpoint, "read %d: first contact (took %v)", i, took)
					}
					settle()
				}
				drain()
			})
		})
	}
}

// Local replicas at their cap go behind the remote ones at a level the
// remote datacenter may serve: planning put the whole local group first,
// so a QUORUM read over 3+3 (blockFor 4) contacted the capped ones, both
// refused, and failed at once while dc2 had idle replicas; under NEVER,
// with no stand-in, one capped local replica was enough (found by review).
func TestLocalReplicasAtTheirCapRankBehindRemoteOnes(t *testing.T) {
	for _, c := range []struct {
		pol    string
		capped []string
	}{
		{"NEVER", []string{d1n1}}, {"NEVER", []string{d1n1, d1n2}},
		{"5ms", []string{d1n1, d1n2}}, {"ALWAYS", []string{d1n1, d1n2}},
	} {
		t.Run(fmt.Sprint(c.pol, len(c.capped)), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newTwoDCs(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 1,
					DefaultTable: policy(t, c.pol), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				hangAtCap(t, e, c.capped...)
				for i := range 5 {
					res, _, err := e.read(consistency.Quorum)
					assert.NoError(t, err, "read %d, with %d sendable replicas for a blockFor of 4:\n%s", i, 6-len(c.capped), res.Trace)
					settle()
				}
				drain()
			})
		})
	}
}

// hangAtCap makes the replicas ids hang and times out a read at ALL, so
// that each holds one abandoned request: a cap of 1 reached.
func hangAtCap(t *testing.T, e *env, ids ...string) {
	t.Helper()
	for _, id := range ids {
		e.hangs(t, id)
	}
	_, _, err := e.read(consistency.All)
	assert.Error(t, err)
	settle()
}
