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

// derivedWait waits on a context derived from its request's, as an RPC
// client does, and returns that context's error: Canceled at the read's
// deadline, its Cause DeadlineExceeded.
type derivedWait struct{ replica.Replica }

func (derivedWait) Read(ctx context.Context, _ replica.Command) (replica.Response, error) {
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	<-child.Done()
	return replica.Response{}, child.Err()
}

// A request that ends at the read's deadline timed out, and is its
// replica's miss, though a context the replica derived says Canceled: the
// request's own context says DeadlineExceeded (as documented), a derived
// one Canceled with that Cause. Its time is sampled, as a timeout's is, so
// a replica that has only timed out shows how long it was waited for, not
// 0 (ReplicaMetrics.Latency): only DeadlineExceeded was sampled, and the
// replica's score stayed 0 (found by review).
func TestARequestEndedByTheDeadlineThroughADerivedContextIsAMiss(t *testing.T) {
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
				assert.Equal(t, int64(1), r.Misses)
				assert.Equal(t, ms(50), r.Latency, "how long it was waited for")
				return
			}
		}
		t.Fatal("A is not listed")
	})
}
