package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A request that timed out counts as answered when it did, so a replica
// that has only timed out shows how long it was waited for, not 0
// (ReplicaMetrics.Latency), one whose RPC client waits on a context derived
// from the request's (derivedWait, which reports Canceled at the deadline)
// too: its score recorded nothing, as only DeadlineExceeded was sampled
// (found by review).
func TestADerivedContextTimeoutIsSampled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newEnv(t, coordinator.Config{}).cluster
		c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: policy(t, "NEVER"), ReadTimeout: ms(50),
			Locator: wrapping(cl, 1, func(r replica.Replica) replica.Replica { return derivedWait{r} })})
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		settle()
		for _, r := range c.Metrics().Replicas {
			if r.Endpoint.ID == A {
				require.Equal(t, int64(1), r.Misses, "it timed out")
				assert.Equal(t, ms(50), r.Latency, "a replica that has only timed out shows how long it was waited for, not 0")
				return
			}
		}
		t.Fatal("A is not listed")
	})
}
