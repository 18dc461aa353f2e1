package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// ReplicaMetrics.Latency is 0 until a replica first answers or times out:
// one that has only timed out shows how long it was waited for; one never
// asked, listed as a live candidate, shows nothing; the first answer is
// the score.
func TestReplicaLatencyIsSetByATimeoutToo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
		e.behave(t, A, constant(ms(1000)))
		_, _, err := e.read(consistency.One)
		require.Error(t, err, "A, the first in the static order, times out")
		settle()
		got := map[string]coordinator.ReplicaMetrics{}
		for _, r := range e.c.Metrics().Replicas {
			got[r.Endpoint.ID] = r
		}
		require.Len(t, got, 3, "every live candidate is listed")
		assert.Equal(t, ms(50), got[A].Latency, "waited for until the read timed out")
		assert.Equal(t, int64(1), got[A].Misses)
		for _, id := range []string{B, C} {
			assert.Zero(t, got[id].Requests, id)
			assert.Zero(t, got[id].Latency, id)
		}

		_, _, err = e.read(consistency.One)
		require.NoError(t, err, "B, ranked before A that missed, answers")
		settle()
		for _, r := range e.c.Metrics().Replicas {
			if r.Endpoint.ID == B {
				assert.Equal(t, ms(1), r.Latency)
			}
		}
	})
}
