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

// A caller's deadline that falls exactly at the read timeout is the read
// timeout: only a deadline sooner than it is the caller's (Read: "the read
// timeout or ctx's deadline passes first"), whose cut requests say nothing
// of the replica (see TestReadsCutByTheirCallersDeadlinesLeaveTheRankingAlone).
// A replica that hangs until then misses, as it does for a caller with no
// deadline of its own: a driver that sets its request timeout to the
// coordinator's must not hide a hung replica from the snitch.
func TestACallersDeadlineAtTheReadTimeoutIsTheReadTimeout(t *testing.T) {
	for _, withDeadline := range []bool{false, true} {
		name := "no deadline"
		if withDeadline {
			name = "deadline at the read timeout"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: ms(20)})
				e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
					Pauses: []replicatest.Window{{Start: 0, End: ms(1000)}}})
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if withDeadline {
					ctx, cancel = context.WithTimeout(ctx, ms(20))
				}
				res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				cancel()
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				require.Equal(t, A, res.Trace.Requests[0].Endpoint, "%s", res.Trace)
				settle()
				for _, r := range e.c.Metrics().Replicas {
					if r.Endpoint.ID == A {
						assert.Equal(t, int64(1), r.Misses, "the hung replica missed")
					}
				}
			})
		})
	}
}
