package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A read that fails on its replicas' failures is counted as a failure
// whatever the replicas failed with: a replica that is itself a
// coordinator (or an adapter over one) may fail with a timeout or an
// unavailable error of its own, which the *ReadFailureError lists
// among its reasons but which is not what became of this read. Counted
// by errors.As, which goes into the reasons, it was a timeout or an
// unavailable read, and under ALL its first round's latency was recorded
// as a timed-out read's.
func TestAFailureIsCountedAsOneWhateverItsReplicasFailedWith(t *testing.T) {
	for name, reason := range map[string]error{
		"timeout":     &consistency.ReadTimeoutError{Level: consistency.One, BlockFor: 1},
		"unavailable": &consistency.UnavailableError{Level: consistency.One, Required: 1},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(ms(2), reason)))

				_, _, err := e.read(consistency.All)
				var failure *consistency.ReadFailureError
				require.ErrorAs(t, err, &failure)
				total := e.c.Metrics().Total
				assert.Equal(t, [3]int64{1, 0, 0}, [3]int64{total.Failures, total.Timeouts, total.Unavailable},
					"failures, timeouts, unavailable")
			})
		})
	}
}
