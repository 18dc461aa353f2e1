package replicatest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

var tortureBehaviors = []replicatest.Behavior{
	{},
	{Latency: replicatest.Uniform(time.Millisecond, 10*time.Millisecond)},
	{Latency: replicatest.Constant(time.Millisecond), PauseChance: 0.5, PauseLength: replicatest.Constant(20 * time.Millisecond)},
	{Latency: replicatest.Constant(2 * time.Millisecond), Pauses: []replicatest.Window{{Start: 0, End: time.Hour}}},
	{Fault: replicatest.Down()},
	{Fault: replicatest.Panics()},
	{Fault: replicatest.ErrorAfter(time.Millisecond, nil)},
	{Latency: replicatest.Constant(30 * time.Millisecond), Fault: replicatest.IgnoresContext()},
	{Fault: replicatest.Unreachable()},
}

// A replica whose behaviour, fault and data change while many goroutines
// read and write it, some cancelling: every call ends once, counted once
// in its Stats (an answer, or a cancellation, error or panic), nothing
// stays in flight, and every answer is a whole version of the partition.
func TestTortureReplicaChangedWhileServing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := replicatest.NewReplica(replica.Endpoint{ID: "n1"}, replicatest.WithWorkers(2, 4))
		version := func(ts int64) replica.Partition {
			rows := make([]replica.Row, 3) // every version has the same three rows, of one timestamp
			for i := range rows {
				rows[i] = replica.NewRow(fmt.Sprint("r", i), replica.Live("v", fmt.Sprint(ts), ts))
			}
			return replica.NewPartition("k", rows...)
		}
		require.NoError(t, r.Seed("t", version(1)))
		var calls, answers atomic.Int64
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for g := range 8 {
			rng := rand.New(rand.NewPCG(uint64(g), 5))
			wg.Go(func() {
				for ctx.Err() == nil {
					time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond) // virtual time moves on
					if tortureCall(t, r, rng, version) {
						answers.Add(1)
					}
					calls.Add(1)
				}
			})
		}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(99, 5))
			for ts := int64(2); ctx.Err() == nil; ts++ {
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				switch rng.IntN(4) {
				case 0:
					assert.NoError(t, r.SetFault(tortureBehaviors[rng.IntN(len(tortureBehaviors))].Fault))
				case 1:
					assert.NoError(t, r.Seed("t", version(ts)))
				case 2:
					assert.NoError(t, r.SetSlowdown(1+rng.Float64()))
				default:
					assert.NoError(t, r.SetBehavior(tortureBehaviors[rng.IntN(len(tortureBehaviors))]))
				}
			}
		})
		time.Sleep(500 * time.Millisecond)
		stop()
		wg.Wait()
		time.Sleep(time.Second) // calls that ignore their context return
		synctest.Wait()
		s := r.Stats()
		assert.Zero(t, s.InFlight)
		assert.Equal(t, calls.Load(), s.Reads+s.Mutations)
		assert.Equal(t, s.Reads, s.DataReads+s.DigestReads)
		assert.Equal(t, calls.Load(), answers.Load()+s.Cancellations+s.Errors+s.Panics, "%v", s)
		assert.Positive(t, answers.Load())
		t.Logf("%d calls, %d answers: %v", calls.Load(), answers.Load(), s)
	})
}

// tortureCall reads or writes r once, cancelling at random, and reports
// whether it was answered. A data answer must be one whole version.
func tortureCall(t *testing.T, r *replicatest.Replica, rng *rand.Rand, version func(int64) replica.Partition) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			ok = false
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond) // Unreachable waits for it
	defer cancel()
	if rng.IntN(3) == 0 {
		time.AfterFunc(time.Duration(rng.IntN(5000))*time.Microsecond, cancel)
	}
	if rng.IntN(4) == 0 {
		return r.Apply(ctx, replica.Mutation{Table: "t", Partition: version(int64(rng.IntN(5)))}) == nil
	}
	res, err := r.Read(ctx, replica.Command{Table: "t", Key: "k", DigestOnly: rng.IntN(2) == 0})
	if err != nil {
		return false
	}
	if p := res.Partition; len(p.Rows) > 0 {
		ts := p.Rows[0].Cells[0].Timestamp
		assert.True(t, p.Equal(version(ts)), "a torn answer: %v", p)
	}
	return true
}
