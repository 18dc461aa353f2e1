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
		ctxA := newReadContext(context.Background(), far, chA)
		ctxB := newReadContext(context.Background(), far, chB)
		defer ctxA.cancel(nil)
		defer ctxB.cancel(nil)

		rt := new(readTimer)
		rt.serve(ctxA)
		rt.reset(time.Millisecond)
		rt.recycle(&pool)
		time.Sleep(2 * time.Millisecond)
		rt.fire() // as a firing already under way when it was recycled
		require.Empty(t, chA, "recycled before it was due")

		rt.serve(ctxB)
		rt.reset(time.Millisecond)
		time.Sleep(2 * time.Millisecond)
		require.Equal(t, []int{tick}, drain(chB))
		require.Empty(t, chA)
		rt.recycle(&pool)
	})
}

func drain(ch chan int) []int {
	var got []int
	for len(ch) > 0 {
		got = append(got, <-ch)
	}
	return got
}
