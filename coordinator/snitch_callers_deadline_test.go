package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// Reads cut short by their callers' own deadlines, sooner than the read
// timeout and sooner than the replicas answer, leave the snitch's ranking
// alone, as reads their callers cancel do. Judged as timeouts, each made
// the replica it asked look missing (a replica that stops at its
// context's end) or overdue (one that answers whatever its context says),
// so that with A and B answering in 10 ms and C in 30, a patient read at
// ONE right after two impatient ones went to C and took three times as
// long (found by review).
func TestReadsCutByTheirCallersDeadlinesLeaveTheRankingAlone(t *testing.T) {
	for name, fault := range map[string]replicatest.Fault{"stops": {}, "answers anyway": replicatest.IgnoresContext()} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(10)), Fault: fault})
				e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(10)), Fault: fault})
				e.behave(t, C, replicatest.Behavior{Latency: replicatest.Constant(ms(30)), Fault: fault})
				for range 5 { // every replica scored
					_, _, err := e.read(consistency.All)
					require.NoError(t, err)
					settle()
				}
				for i := range 20 {
					for range 2 {
						ctx, cancel := context.WithTimeout(context.Background(), ms(2))
						_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
						cancel()
						var timeout *consistency.ReadTimeoutError
						require.ErrorAs(t, err, &timeout)
						settle()
					}
					res, took, err := e.read(consistency.One)
					require.NoError(t, err)
					assert.Equal(t, ms(10), took, "patient read %d went to %s", i, res.Trace.Requests[0].Endpoint)
					settle()
				}
			})
		})
	}
}
