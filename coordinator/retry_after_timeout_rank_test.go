package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A read made the moment another times out ranks the replicas that hung
// behind the one that did not, though their workers have not returned: the
// read that timed out records its unanswered requests' misses before it
// returns. They were recorded only when the hung replicas returned, so a
// downgraded retry at ONE went to a replica still hanging, which looked
// fastest. (Found by a newcomer testing retries over replicatest.)
func TestAReadRightAfterATimeoutAvoidsTheReplicasThatHung(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "NEVER")})
		e.behave(t, C, constant(ms(5))) // C looks slower than A and B, which a QUORUM read contacts
		for range 20 {
			_, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			settle()
		}
		e.hangs(t, A)
		e.hangs(t, B)

		_, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(100), took)
		assert.Zero(t, timeout.Received)

		res, _, err := e.read(consistency.One) // no settle(): a driver's immediate retry
		require.NoError(t, err)
		require.NotEmpty(t, res.Trace.Requests)
		assert.Equal(t, C, res.Trace.Requests[0].Endpoint, "the replicas still hanging rank last")
		for _, r := range e.c.Metrics().Replicas {
			if r.Endpoint.ID == A || r.Endpoint.ID == B {
				assert.Equal(t, int64(1), r.Misses, "%s: one miss for its one timed-out request", r.Endpoint.ID)
			}
		}

		time.Sleep(time.Hour) // the hung requests return; their misses are not counted again
		settle()
		for _, r := range e.c.Metrics().Replicas {
			if r.Endpoint.ID == A || r.Endpoint.ID == B {
				assert.Equal(t, int64(1), r.Misses, "%s after its request returned", r.Endpoint.ID)
			}
		}
	})
}
