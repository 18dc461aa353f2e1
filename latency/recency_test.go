package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// recordFor records d every 10 ms of virtual time for the given span.
func recordFor(tr *latency.Tracker, d, span time.Duration) {
	for range span / (10 * time.Millisecond) {
		tr.Record(d)
		time.Sleep(10 * time.Millisecond)
	}
}

// The window slides a third at a time: a minute's window holds the current
// twenty seconds and the two before them.
func TestLatencyJumpShowsWithinOneWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // the bubble's clock; a one-minute window
		recordFor(tr, 10*time.Millisecond, 2*time.Minute)
		withinBucket(t, 10*time.Millisecond, tr.Quantile(0.99))

		recordFor(tr, 40*time.Millisecond, 10*time.Second)
		withinBucket(t, 40*time.Millisecond, tr.Quantile(0.99), "the tail moves at once")
		withinBucket(t, 10*time.Millisecond, tr.Quantile(0.5), "the median once most samples are new")

		recordFor(tr, 40*time.Millisecond, 20*time.Second)
		withinBucket(t, 40*time.Millisecond, tr.Quantile(0.5))
		withinBucket(t, 10*time.Millisecond, tr.Quantile(0), "old samples still in the window")

		recordFor(tr, 40*time.Millisecond, 30*time.Second)
		withinBucket(t, 40*time.Millisecond, tr.Quantile(0), "one window after the jump, only new samples")
	})
}

// Record alone slides the window: a tracker nobody queries for minutes still
// answers about the last window when finally asked.
func TestRecordAloneSlidesTheWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		recordFor(tr, 10*time.Millisecond, 3*time.Minute)
		recordFor(tr, 40*time.Millisecond, time.Minute)
		withinBucket(t, 40*time.Millisecond, tr.Quantile(0))
		// Two thirds to all of a window of samples, 100 a second; Record
		// notices a new third on one sample in 128 of a bucket, and the
		// samples before it count with the third before.
		n := tr.Snapshot().Count
		assert.GreaterOrEqual(t, n, int64(4000-128))
		assert.LessOrEqual(t, n, int64(6000))
	})
}

func TestSampleCountsForExactlyOneWindowFromTheStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		tr.Record(time.Millisecond)
		time.Sleep(time.Minute - time.Nanosecond)
		assert.Equal(t, int64(1), tr.Snapshot().Count)
		time.Sleep(time.Nanosecond)
		assert.Zero(t, tr.Snapshot().Count)
		assert.Zero(t, tr.Quantile(0.99))
	})
}

// A window slides a third at a time, so a sample recorded late in a third
// counts for at least two thirds of a window.
func TestSampleCountsForAtLeastTwoThirdsOfAWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker(latency.WithWindow(3 * time.Second))
		time.Sleep(time.Second - time.Nanosecond)
		tr.Record(time.Millisecond) // the last moment of the first third
		time.Sleep(2 * time.Second)
		assert.Equal(t, int64(1), tr.Snapshot().Count)
		time.Sleep(time.Nanosecond)
		assert.Zero(t, tr.Snapshot().Count)
	})
}

func TestIdleTrackerForgetsAndStartsAfresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker()
		recordFor(tr, 10*time.Millisecond, time.Second)
		time.Sleep(10 * time.Minute)
		assert.Zero(t, tr.Quantile(0.5))
		tr.Record(40 * time.Millisecond)
		withinBucket(t, 40*time.Millisecond, tr.Quantile(0.5), "a sample recorded after a long gap counts at once")
		assert.Equal(t, int64(1), tr.Snapshot().Count)
	})
}
