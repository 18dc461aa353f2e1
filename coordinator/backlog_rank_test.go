package coordinator_test

import (
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
				e.hangs(t, A)
				e.hangs(t, B)
				_, _, err = e.read(consistency.All) // times out: A and B each hold one abandoned request
				assert.Error(t, err)
				settle()

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
