package replicatest_test

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Workers and a queue limit as large as an int holds are valid, and
// neither New nor NewReplica ("It never panics") panics on them: their sum
// made the queue's channel, and math.MaxInt, a natural "no real limit",
// overflowed it (makechan: size out of range).
func TestHugeWorkersAndQueueLimitsAreValid(t *testing.T) {
	for name, limits := range map[string][2]int{
		"MaxInt queue":             {4, math.MaxInt},
		"MaxInt workers":           {math.MaxInt, 1},
		"MaxInt workers and queue": {math.MaxInt, math.MaxInt},
	} {
		t.Run(name, func(t *testing.T) {
			ep := replica.Endpoint{ID: "n1"}
			opt := replicatest.WithWorkers(limits[0], limits[1])
			require.NotPanics(t, func() {
				_, err := replicatest.New(ep, opt)
				assert.NoError(t, err)
				assert.NoError(t, replicatest.NewReplica(ep, opt).Err())
			})
		})
	}
}

// One worker and a queue limit of math.MaxInt: requests queue behind the
// worker, none is refused.
func TestMaxIntQueueLimitQueuesEveryRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))), replicatest.WithWorkers(1, math.MaxInt))
		start := time.Now()
		done := make(chan time.Duration, 3)
		for range 3 {
			go func() {
				_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
				assert.NoError(t, err)
				done <- time.Since(start)
			}()
		}
		var took []time.Duration
		for range 3 {
			took = append(took, <-done)
		}
		assert.ElementsMatch(t, []time.Duration{ms(10), ms(20), ms(30)}, took)
		assert.Equal(t, int64(0), r.Stats().Overloaded)
	})
}
