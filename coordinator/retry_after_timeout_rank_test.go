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
// behind the one that did not, though their workers have not returned: a
// request given up at its read's deadline counts as a miss in ranking until
// its replica returns from it or answers a later request. Their misses were
// recorded only when they returned, so a downgraded retry at ONE went to a
// replica still hanging, which looked fastest. (Found by a newcomer testing
// retries over replicatest.) Once they answer, nothing of it is left.
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

		e.behave(t, A, constant(ms(1)))
		e.behave(t, B, constant(ms(1)))
		time.Sleep(time.Hour) // the hung requests answer
		settle()
		for _, r := range e.c.Metrics().Replicas {
			assert.Zero(t, r.Misses, "%s: an answer, however late, is no miss", r.Endpoint.ID)
			assert.Zero(t, r.Abandoned, r.Endpoint.ID)
		}
	})
}
