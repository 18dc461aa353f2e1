package replicatest_test

import (
	"context"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConstantLatencyAnswersAtExactlyItsDuration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(3))))
		assert.Equal(t, ms(3), readTook(t, r))
		assert.Equal(t, ms(3), readTook(t, r))
	})
}

// Timers are exact in a bubble: a replica correcting its timers' lateness
// still answers at exactly its latency, read after read.
func TestTimerCorrectionKeepsExactTimersExact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(3))), replicatest.WithTimerCorrection())
		for range 20 {
			require.Equal(t, ms(3), readTook(t, r))
		}
	})
}

func TestZeroBehaviorAnswersAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		assert.Zero(t, readTook(t, newReplica(t)))
	})
}

func TestPauseWindowHoldsRequestsUntilItsEnd(t *testing.T) {
	cases := []struct {
		name    string
		arrive  time.Duration
		windows []replicatest.Window
		want    time.Duration // when the answer comes, since the replica's start
	}{
		{"arrives at the window's start", ms(100), []replicatest.Window{{ms(100), ms(180)}}, ms(180)},
		{"arrives inside", ms(150), []replicatest.Window{{ms(100), ms(180)}}, ms(180)},
		{"arrives just before", ms(99), []replicatest.Window{{ms(100), ms(180)}}, ms(99)},
		{"arrives at the end", ms(180), []replicatest.Window{{ms(100), ms(180)}}, ms(180)},
		{"back-to-back windows chain", ms(150), []replicatest.Window{{ms(180), ms(200)}, {ms(100), ms(180)}}, ms(200)},
		{"second window", ms(250), []replicatest.Window{{ms(100), ms(180)}, {ms(240), ms(300)}}, ms(300)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newReplica(t, with(replicatest.Behavior{Pauses: c.windows}))
				time.Sleep(c.arrive)
				readTook(t, r)
				assert.Equal(t, c.want, time.Since(r.Start()))
			})
		})
	}
}

func TestPauseWindowThenService(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{
			Latency: replicatest.Constant(ms(3)), Pauses: []replicatest.Window{{ms(100), ms(180)}},
		}))
		time.Sleep(ms(100))
		assert.Equal(t, ms(83), readTook(t, r), "the service starts when the window ends")
	})
}

// A window holds requests arriving in it only: one already in service when
// it starts answers on time, as Window's doc says (a GC would stop it too).
func TestPauseWindowLetsARequestInServiceFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{
			Latency: replicatest.Constant(ms(10)), Pauses: []replicatest.Window{{ms(100), ms(180)}},
		}))
		time.Sleep(ms(95))
		assert.Equal(t, ms(10), readTook(t, r), "answers at 105ms, inside the window")
	})
}

func TestCancelledRequestReturnsAtTheCancellation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))))
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(ms(5), cancel)
		took, _, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
		assert.Equal(t, ms(5), took)
		require.ErrorIs(t, err, context.Canceled)
		var re *replicatest.RequestError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, replicatest.RequestError{Replica: "n1", Op: "read", Err: context.Canceled}, *re)
		assert.Equal(t, int64(1), r.Stats().Cancellations)
		assert.Zero(t, r.Stats().Errors)
	})
}

func TestDeadlineEndsTheRequestAtExactlyTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))))
		ctx, cancel := context.WithTimeout(t.Context(), ms(4))
		defer cancel()
		took, _, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k", DigestOnly: true})
		assert.Equal(t, ms(4), took)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, int64(1), r.Stats().Cancellations)
	})
}

func TestPreCancelledRequestFailsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))))
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		took, _, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
		assert.Zero(t, took)
		require.ErrorIs(t, err, context.Canceled)
		require.ErrorIs(t, r.Apply(ctx, replica.Mutation{Table: table, Partition: partition("k", "v", 1)}), context.Canceled)
		assert.Equal(t, int64(2), r.Stats().Cancellations)
		_, held := r.Partition(table, "k")
		assert.False(t, held, "a cancelled Apply changes nothing")
	})
}

func TestIgnoresContextAnswersAfterItsLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Latency: replicatest.Constant(ms(10)), Fault: replicatest.IgnoresContext()}))
		require.NoError(t, r.Seed(table, partition("k", "v", 1)))
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(ms(5), cancel)
		took, resp, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
		assert.Equal(t, ms(10), took)
		require.NoError(t, err)
		assert.True(t, resp.Partition.Equal(partition("k", "v", 1)))
		assert.Equal(t, replicatest.Stats{Reads: 1, DataReads: 1, LateAnswers: 1}, r.Stats())

		took, _, err = timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
		assert.Equal(t, ms(10), took, "an already cancelled context is ignored as well")
		require.NoError(t, err)
	})
}

func TestWorkersServeInTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))), replicatest.WithWorkers(2, 0))
		ats, errs := concurrentReads(t, r, 4)
		assert.Equal(t, []time.Duration{ms(10), ms(10), ms(20), ms(20)}, ats)
		assert.Equal(t, []error{nil, nil, nil, nil}, errs)
	})
}

func TestLatencyGrowsWithQueuedWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))), replicatest.WithWorkers(1, 0))
		ats, _ := concurrentReads(t, r, 5)
		assert.Equal(t, []time.Duration{ms(10), ms(20), ms(30), ms(40), ms(50)}, ats)
	})
}

func TestFullQueueRefusesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))), replicatest.WithWorkers(1, 2))
		ats, errs := concurrentReads(t, r, 5)
		assert.Equal(t, []time.Duration{0, 0, ms(10), ms(20), ms(30)}, ats)
		for i, err := range errs {
			if i < 2 {
				require.ErrorIs(t, err, replicatest.ErrOverloaded)
				require.ErrorIs(t, err, replica.ErrOverloaded, "what a transport would send back")
			} else {
				require.NoError(t, err)
			}
		}
		s := r.Stats()
		assert.Equal(t, int64(2), s.Overloaded)
		assert.Equal(t, int64(2), s.Errors)
	})
}

func TestCancelledWhileQueuedFreesItsPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))), replicatest.WithWorkers(1, 1))
		go func() { // holds the worker until 10ms
			_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
			assert.NoError(t, err)
		}()
		synctest.Wait()
		ctx, cancel := context.WithTimeout(t.Context(), ms(3))
		defer cancel()
		took, _, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
		assert.Equal(t, ms(3), took)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, ms(17), readTook(t, r), "the queue place is free again: it waits for the worker until 10ms, then serves")
	})
}

func TestSlowdownScalesServiceTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Latency: replicatest.Constant(ms(10)), Slowdown: 2.5}))
		assert.Equal(t, ms(25), readTook(t, r))
		require.NoError(t, r.SetSlowdown(0.5))
		assert.Equal(t, ms(5), readTook(t, r))
		require.NoError(t, r.SetSlowdown(0))
		assert.Equal(t, ms(10), readTook(t, r), "0 means no slowdown")
	})
}

func TestRandomPauseAddsToServiceTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{
			Latency: replicatest.Constant(ms(3)), Slowdown: 2, PauseChance: 1, PauseLength: replicatest.Constant(ms(50)),
		}))
		assert.Equal(t, ms(56), readTook(t, r), "the pause is not slowed down")
	})
}

func TestRandomPausesHitTheirShareOfRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, replicatest.WithSeed(9), with(replicatest.Behavior{
			Latency: replicatest.Constant(ms(3)), PauseChance: 0.2, PauseLength: replicatest.Uniform(ms(50), ms(100)),
		}))
		paused := 0
		for range 1000 {
			switch took := readTook(t, r); {
			case took == ms(3):
			case took >= ms(53) && took <= ms(103):
				paused++
			default:
				t.Fatalf("a read took %v", took)
			}
		}
		assert.InDelta(t, 200, paused, 40)
	})
}

func TestIgnoresContextWaitsInTheQueueToo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Latency: replicatest.Constant(ms(10)), Fault: replicatest.IgnoresContext()}),
			replicatest.WithWorkers(1, 0))
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		done := make(chan time.Duration, 2)
		start := time.Now()
		for range 2 {
			go func() {
				_, err := r.Read(ctx, replica.Command{Table: table, Key: "k"})
				assert.NoError(t, err)
				done <- time.Since(start)
			}()
		}
		assert.Equal(t, []time.Duration{ms(10), ms(20)}, []time.Duration{<-done, <-done})
		assert.Equal(t, int64(2), r.Stats().LateAnswers)
	})
}

func TestHugeDrawsSaturateInsteadOfWrapping(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{
			Latency: replicatest.Constant(math.MaxInt64), Slowdown: 3,
			PauseChance: 1, PauseLength: replicatest.Constant(time.Hour),
		}))
		ctx, cancel := context.WithTimeout(t.Context(), ms(1))
		defer cancel()
		took, _, err := timedRead(ctx, r, replica.Command{Table: table, Key: "k"})
		assert.Equal(t, ms(1), took, "an overflowed, negative service time would answer at once")
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
}
