package latency_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// Samples recorded two thirds or more after anyone last looked at the
// clock, too few for Record's probe to look, count from the moment they
// are recorded: packed with the third last noticed, they left the window
// at the first query.
func TestSamplesAfterAnUnnoticedGapCountAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // thirds of 20 s
		tr.Record(10 * time.Millisecond)
		time.Sleep(2 * time.Minute)
		for range 10 {
			tr.Record(40 * time.Millisecond)
		}
		assert.Equal(t, int64(10), tr.Snapshot().Count)
		withinBucket(t, 40*time.Millisecond, tr.Quantile(0), "the sample of two minutes ago is gone")
	})
}

// A quiet table read once a window, as by a metrics scraper, shows the
// samples of at least the last two thirds of a window.
func TestAQuietTrackerReadOnceAWindowShowsItsRecentSamples(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // thirds of 20 s
		for range 3 {
			for range 50 { // a sample a second: 20 a third, too few to probe
				tr.Record(10 * time.Millisecond)
				time.Sleep(time.Second)
			}
			time.Sleep(10 * time.Second)
			assert.GreaterOrEqual(t, tr.Snapshot().Count, int64(30), "the samples of the last 40 s")
		}
	})
}

// A busy tracker idle for a while, then recorded to with RecordAt and no
// query in between, counts every sample after the gap: Record would file
// those before its next clock read with the sub-window before the gap,
// which has left the window (948 of 1,000 counted, or none of 3,000 when
// its buckets had just passed a multiple of 128).
func TestRecordAtCountsTheSamplesAfterAGapOfABusyTracker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // thirds of 20 s
		for i := range 100_000 {
			tr.RecordAt(time.Duration(1+i%10)*time.Millisecond, time.Now())
		}
		time.Sleep(2 * time.Minute)
		for i := range 1000 {
			tr.RecordAt(time.Duration(1+i%10)*time.Millisecond, time.Now())
		}
		assert.Equal(t, int64(1000), tr.Snapshot().Count)
	})
}

// A busy tracker is quiet again once a query begins a new sub-window:
// samples recorded after a gap since that query count at once, as after a
// gap of a tracker that was never busy. Left busy by the query's rotation,
// Record read no clock, filed them with the sub-window the query began,
// and the next query dropped them with it.
func TestABusyTrackerQueriedIsQuietInTheNewSubWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := latency.NewTracker() // thirds of 20 s
		for range 1000 {
			tr.Record(time.Millisecond) // past clockEvery: busy
		}
		time.Sleep(30 * time.Second)
		assert.Equal(t, int64(1000), tr.Snapshot().Count) // begins the second third
		time.Sleep(2 * time.Minute)
		for range 10 {
			tr.Record(40 * time.Millisecond)
		}
		assert.Equal(t, int64(10), tr.Snapshot().Count)
	})
}
