package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A failure's time is not a latency, one whose error wraps
// context.DeadlineExceeded (an upstream's deadline, the read's far off)
// included: only a request that ended at the read's deadline is sampled as
// a timeout. Such a failure at once was sampled as an answer in 0 s, and
// its probe replaced the replica's 1 ms score with 0 (found by review).
func TestSnitchOwnDeadlineErrorIsNotALatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		_, _, err := e.read(consistency.All) // every replica scored at 1 ms
		require.NoError(t, err)
		own := fmt.Errorf("upstream call: %w", context.DeadlineExceeded)
		require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(0, own)))
		for range 3 { // reads at ONE, each interval's probe of A fails at once
			_, _, _ = e.read(consistency.One)
			settle()
			time.Sleep(ms(501))
		}
		for _, r := range e.c.Metrics().Replicas {
			if r.Endpoint.ID == A {
				assert.Positive(t, r.Misses)
				assert.GreaterOrEqual(t, r.Latency, ms(1), "A's score after failing at once, the read's 5 s deadline far off")
			}
		}
	})
}
