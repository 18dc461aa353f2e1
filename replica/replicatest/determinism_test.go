package replicatest_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var noisy = replicatest.Behavior{
	Latency:     replicatest.LogNormal(ms(2), 0.8),
	PauseChance: 0.1, PauseLength: replicatest.Uniform(ms(50), ms(100)),
}

// latencies returns how long each of n sequential reads took on a fresh
// replica built with opts, in a bubble of its own.
func latencies(t *testing.T, n int, id string, opts ...replicatest.Option) []time.Duration {
	var out []time.Duration
	synctest.Test(t, func(t *testing.T) {
		r, err := replicatest.New(replica.Endpoint{ID: id}, opts...)
		require.NoError(t, err)
		for range n {
			out = append(out, readTook(t, r))
		}
	})
	return out
}

func TestSameSeedSameLatencies(t *testing.T) {
	a := latencies(t, 200, "a", replicatest.WithSeed(5), with(noisy))
	assert.Equal(t, a, latencies(t, 200, "b", replicatest.WithSeed(5), with(noisy)), "the seed alone decides")
	assert.NotEqual(t, a, latencies(t, 200, "a", replicatest.WithSeed(6), with(noisy)))
}

func TestDefaultSeedComesFromTheID(t *testing.T) {
	a := latencies(t, 100, "n1", with(noisy))
	assert.Equal(t, a, latencies(t, 100, "n1", with(noisy)))
	assert.NotEqual(t, a, latencies(t, 100, "n2", with(noisy)))
}

func TestInFlightRequestsKeepTheirBehavior(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))))
		var first time.Duration
		var wg sync.WaitGroup
		wg.Go(func() { first = readTook(t, r) })
		time.Sleep(ms(5))
		require.NoError(t, r.SetLatency(replicatest.Constant(ms(100))))
		assert.Equal(t, ms(100), readTook(t, r), "a request arriving after the change uses it")
		wg.Wait()
		assert.Equal(t, ms(10), first, "the request in flight kept its latency")
	})
}

// Behaviour changes race with requests in flight; run with -race.
func TestBehaviorChangesWhileReadsAreInFlight(t *testing.T) {
	r := newReplica(t, replicatest.WithWorkers(4, 0))
	behaviors := []replicatest.Behavior{
		{}, {Latency: replicatest.Uniform(0, time.Microsecond)}, {Slowdown: 2, Pauses: []replicatest.Window{{0, time.Microsecond}}},
		{PauseChance: 0.5, PauseLength: replicatest.Constant(time.Microsecond)},
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k", DigestOnly: i%2 == 0})
				assert.NoError(t, err)
				assert.NoError(t, r.Apply(t.Context(), replica.Mutation{Table: table, Partition: partition("k", "v", int64(w*1000+i))}))
			}
		})
	}
	wg.Go(func() {
		for i := range 400 {
			assert.NoError(t, r.SetBehavior(behaviors[i%len(behaviors)]))
			assert.NoError(t, r.SetSlowdown(float64(i%3)))
			_ = r.Behavior()
		}
	})
	wg.Wait()
	s := r.Stats()
	assert.Equal(t, replicatest.Stats{Reads: 800, DataReads: 400, DigestReads: 400, Mutations: 800}, s)
}
