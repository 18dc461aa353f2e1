package coordinator_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

var chaosBehaviors = []replicatest.Behavior{
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.LogNormal(ms(2), 0.5)},
	{Latency: replicatest.Constant(ms(1)), Fault: replicatest.Down()},
	{Fault: replicatest.Unreachable()},
	{Fault: replicatest.Panics()},
	{Fault: replicatest.ErrorAfter(ms(3), nil)},
	{Latency: replicatest.Constant(ms(70)), Fault: replicatest.IgnoresContext()},
	{Latency: replicatest.Uniform(ms(5), ms(40))},
}

// chaos changes a random replica's behaviour, liveness or data every few
// milliseconds until stop is closed.
func chaos(t *testing.T, e *env, rng *rand.Rand, stop <-chan struct{}) {
	ids := []string{A, B, C}
	for ts := int64(100); ; ts++ {
		select {
		case <-stop:
			return
		case <-time.After(ms(3)):
		}
		id := ids[rng.IntN(len(ids))]
		switch rng.IntN(5) {
		case 0:
			require.NoError(t, e.cluster.SetAlive(id, rng.IntN(3) > 0))
		case 1:
			require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v", ts), id))
		default:
			require.NoError(t, e.replica(id).SetBehavior(chaosBehaviors[rng.IntN(len(chaosBehaviors))]))
		}
	}
}

// Many concurrent reads, at every level and under every option, against
// replicas that fail in every way: each read ends with a result or a typed
// error, the metrics add up, and nothing leaks (synctest and goleak).
func TestConcurrentReadsUnderChaos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), MaxInFlight: 40, LocalDatacenter: "dc1"})
		rng := rand.New(rand.NewPCG(1, 2))
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { defer close(done); chaos(t, e, rand.New(rand.NewPCG(3, 4)), stop) }()

		levels := []consistency.Level{consistency.One, consistency.Two, consistency.Quorum, consistency.All, consistency.LocalQuorum, consistency.LocalOne}
		policies := []string{"NEVER", "ALWAYS", "5ms", "90p", "MIN(99p,10ms)"}
		var ok, typed atomic.Int64
		var wg sync.WaitGroup
		for g := range 60 {
			level := levels[g%len(levels)]
			pace := ms(float64(1 + g%9))
			wg.Go(func() {
				for range 20 {
					time.Sleep(pace)
					_, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
					if err == nil {
						ok.Add(1)
						continue
					}
					assert.True(t, isTyped(err), "untyped error: %v", err)
					typed.Add(1)
				}
			})
		}
		for i := range 30 { // ALTER TABLE while reads run
			o := policy(t, policies[rng.IntN(len(policies))])
			o.ReadRepair = repair.Mode(rng.IntN(3))
			o.Strategy = coordinator.Strategy(rng.IntN(2))
			require.NoError(t, e.c.SetTableOptions(tbl, o))
			time.Sleep(ms(float64(5 + i%7)))
		}
		wg.Wait()
		close(stop)
		<-done
		time.Sleep(ms(100)) // late answers of replicas that ignore their context

		m := e.c.Metrics().Total
		assert.Equal(t, int64(1200), m.Reads)
		assert.Equal(t, ok.Load()+typed.Load(), m.Reads)
		assert.Equal(t, typed.Load(), m.Unavailable+m.Timeouts+m.Failures)
		assert.Zero(t, m.OtherErrors+m.Cancelled)
		assert.Equal(t, m.SpeculativeRetries, m.HedgeWins+m.FailedSpeculations)
		assert.Positive(t, ok.Load())
		assert.Positive(t, m.Timeouts)
		assert.Positive(t, m.Failures)
		assert.Positive(t, m.DigestMismatches)
		t.Logf("%d ok, %d errors\n%v", ok.Load(), typed.Load(), e.c.Metrics())
	})
}

func isTyped(err error) bool {
	var (
		u  *consistency.UnavailableError
		rt *consistency.ReadTimeoutError
		rf *consistency.ReadFailureError
	)
	return errors.As(err, &u) || errors.As(err, &rt) || errors.As(err, &rf)
}
