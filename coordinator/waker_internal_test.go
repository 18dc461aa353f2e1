package coordinator

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

// A read waiting for a round's answers is woken once they are all in, not
// for each; a failure or a tick wakes it at once; a read waiting for one
// answer is handed it on the channel, without a signal.
func TestTheReadIsWokenWhenItsAnswersAreIn(t *testing.T) {
	w := newWaker()
	ch := make(chan int, 3+maxTicks)
	w.want.Store(3) // as wait stores it for a round short of three answers
	for i := range 2 {
		ch <- i
		w.delivered(false)
		require.Empty(t, w.wake, "woken by answer %d of 3", i+1)
	}
	ch <- 2
	w.delivered(false)
	require.Len(t, w.wake, 1, "not woken by the third answer")

	w.reset()
	w.want.Store(3)
	ch <- 0
	w.delivered(true)
	require.Len(t, w.wake, 1, "not woken by a failure")

	// A read waiting for one answer takes it off the channel itself:
	// nothing signals.
	w.reset()
	go func() { ch <- 0; w.delivered(true) }()
	idx, ok := w.wait(ch, 1, nil)
	require.True(t, ok)
	require.Equal(t, 0, idx)
	require.Empty(t, w.wake, "signalled a read that took its answer itself")

	w.reset()
	w.want.Store(3)
	ctx := newReadContext(context.Background(), time.Now().Add(time.Hour))
	defer ctx.cancel(nil)
	(&readTimer{ctx: ctx, ticks: ch, w: w}).fire()
	require.Len(t, w.wake, 1, "not woken by a tick")
}

// No wake-up is ever missed: a reader waiting for as many answers as its
// round still needs (never more than are still to come) gets every answer, however the workers' pushes and
// counts interleave with its looks, with failures among them, and with
// requests of the round before (or of the read before) still counting and
// signalling after the reset. A missed wake-up leaves the reader blocked
// with every worker done: synctest reports the deadlock.
func TestNoWakeUpIsMissed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	synctest.Test(t, func(t *testing.T) {
		w := newWaker()
		var prev chan int // the round before's, whose requests may still end
		for range 3000 {
			n := 1 + rng.IntN(9)
			need := 1 + rng.IntN(n)
			w.reset()
			ch := make(chan int, n+maxTicks)
			yields := make([]int, n)
			failed := make([]bool, n)
			for i := range n {
				yields[i], failed[i] = rng.IntN(4), rng.IntN(5) == 0
			}
			for i := range n {
				go func() {
					for range yields[i] {
						runtime.Gosched()
					}
					ch <- i
					w.delivered(failed[i])
				}()
			}
			if prev != nil && rng.IntN(3) == 0 { // a request of the round before ends now
				old, f := prev, rng.IntN(2) == 0
				go func() {
					old <- 0
					w.delivered(f)
				}()
			}
			prev = ch
			received, taken := 0, 0
			for taken < n {
				// gather waits only while the answers still to come can
				// complete the round: for no more than will arrive.
				idx, ok := w.wait(ch, min(need-received, n-taken), nil)
				require.True(t, ok)
				require.NotEqual(t, tick, idx)
				taken++
				if !failed[idx] {
					received++
				}
			}
			synctest.Wait()
		}
	})
}
