package coordinator

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

func TestARecycledTimerNeverFiresIntoAReadItNoLongerServes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var pool sync.Pool
		far := time.Now().Add(time.Hour)
		chA, chB := make(chan int, maxTicks), make(chan int, maxTicks)
		ctxA := newReadContext(context.Background(), far)
		ctxB := newReadContext(context.Background(), far)
		defer ctxA.cancel(nil)
		defer ctxB.cancel(nil)

		rt := new(readTimer)
		rt.arm(ctxA, chA, newWaker(), time.Now().Add(time.Millisecond))
		rt.recycle(&pool)
		time.Sleep(2 * time.Millisecond)
		rt.fire() // as a firing already under way when it was recycled
		require.Empty(t, chA, "recycled before it was due")

		rt.arm(ctxB, chB, newWaker(), time.Now().Add(time.Millisecond))
		time.Sleep(2 * time.Millisecond)
		require.Equal(t, []int{tick}, drain(chB))
		require.Empty(t, chA)
		rt.recycle(&pool)
	})
}

// A firing whose function had started when the timer was recycled, and
// that gets the timer's lock only once the next read armed it, is stale:
// it must not tick into that read, which would then hedge at once, however
// close that read's arming is to being due (a microsecond off is still
// early: no slack).
func TestAStaleFiringDoesNotTickIntoTheNextRead(t *testing.T) {
	for _, wait := range []time.Duration{3 * time.Millisecond, time.Microsecond} {
		synctest.Test(t, func(t *testing.T) {
			var pool sync.Pool
			far := time.Now().Add(time.Hour)
			chA, chB := make(chan int, maxTicks), make(chan int, maxTicks)
			ctxA := newReadContext(context.Background(), far)
			ctxB := newReadContext(context.Background(), far)
			defer ctxA.cancel(nil)
			defer ctxB.cancel(nil)

			rt := new(readTimer)
			rt.arm(ctxA, chA, newWaker(), time.Now().Add(time.Millisecond))
			time.Sleep(time.Millisecond) // A's arming is due
			synctest.Wait()
			drain(chA)
			rt.recycle(&pool)
			rt.arm(ctxB, chB, newWaker(), time.Now().Add(wait))
			rt.fire() // A's firing, late for the lock
			require.Empty(t, chB, "a stale firing ticked into the next read, due in %v", wait)

			time.Sleep(wait)
			synctest.Wait() // B's firing has run
			require.Equal(t, []int{tick}, drain(chB), "B's own arming fires")
			rt.recycle(&pool)
		})
	}
}

func drain(ch chan int) []int {
	var got []int
	for len(ch) > 0 {
		got = append(got, <-ch)
	}
	return got
}

// An arming already due must not run the timer's function inside arm: in a
// synctest bubble the runtime would run it at once on the system stack,
// where Go 1.26.8's race detector crashed (SIGSEGV in TSan's SlotLock from
// runtime.(*timer).modify), first arming and re-arming alike.
func TestADueArmingFiresAfterArmReturns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var pool sync.Pool
		ctx := newReadContext(context.Background(), time.Now().Add(time.Hour))
		defer ctx.cancel(nil)
		ch := make(chan int, maxTicks)

		rt := new(readTimer)
		rt.arm(ctx, ch, newWaker(), time.Now())
		require.Empty(t, ch, "first arming ran in place")
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		require.Equal(t, []int{tick}, drain(ch), "it still fires")

		rt.arm(ctx, ch, newWaker(), time.Now().Add(-time.Second))
		require.Empty(t, ch, "re-arming ran in place")
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		require.Equal(t, []int{tick}, drain(ch), "it still fires")
		rt.recycle(&pool)
	})
}
