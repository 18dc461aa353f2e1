package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// A RecordAt whose now is ahead of the tracker's clock (a time from
// another clock, or a wall time without a monotonic reading after a step
// forward) counts its sample now and leaves the window sliding with the
// clock: taken as the time, it made the window's current third the one of
// the year ahead, so nothing left the window until then and every later
// sample piled up in it.
func TestRecordAtAheadOfTheClockKeepsTheWindowSliding(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // thirds of 20 s
		for range 1000 {
			tr.RecordAt(100*time.Millisecond, time.Now())
		}
		tr.RecordAt(100*time.Millisecond, time.Now().Add(365*24*time.Hour))
		for range 3 {
			time.Sleep(time.Minute)
			for range 1000 {
				tr.RecordAt(time.Millisecond, time.Now())
			}
		}
		s := tr.Snapshot()
		assert.Equal(t, int64(1000), s.Count, "the samples of a minute ago have left the window")
		withinBucket(t, time.Millisecond, s.Max, "the year-ahead sample has left it too")
	})
}

// A RecordAt at the very instant a sub-window ends files its sample in the
// next one: at 20 s, the start of the second third, it is still in the
// window 40 s later, when the first third has left it.
func TestRecordAtTheEndOfASubWindowFilesInTheNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // thirds of 20 s
		time.Sleep(20 * time.Second)
		tr.RecordAt(time.Millisecond, time.Now())
		time.Sleep(40 * time.Second)
		assert.Equal(t, int64(1), tr.Snapshot().Count)
	})
}
