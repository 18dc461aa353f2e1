package latency_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

func TestFreshTrackerCountsWhatWasJustRecorded(t *testing.T) {
	tr := latency.NewTracker() // real clock: the current, partial sub-window counts
	for ms := range 10_000 {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	withinBucket(t, 4999*time.Millisecond, tr.Quantile(0.5))
	withinBucket(t, 9899*time.Millisecond, tr.Quantile(0.99))
	withinBucket(t, 9999*time.Millisecond, tr.Quantile(1))
	assert.Less(t, tr.Quantile(0), time.Microsecond, "the minimum, 0 ms, is in the lowest bucket")
	assert.Equal(t, int64(10_000), tr.Snapshot().Count)
}

func TestEmptyTrackerAnswersZero(t *testing.T) {
	tr := latency.NewTracker()
	for _, q := range []float64{0, 0.5, 0.99, 1} {
		assert.Zero(t, tr.Quantile(q))
	}
	assert.Equal(t, latency.Snapshot{}, tr.Snapshot())
	assert.Zero(t, tr.Snapshot().Quantile(0.99))
}

func TestNegativeSamplesAreCountedAndIgnored(t *testing.T) {
	tr := frozen()
	tr.Record(-time.Millisecond)
	tr.Record(math.MinInt64)
	assert.Zero(t, tr.Quantile(0.5), "negative samples are no latency")
	tr.Record(3 * time.Millisecond)
	s := tr.Snapshot()
	assert.Equal(t, int64(1), s.Count)
	assert.Equal(t, int64(2), s.Negative)
	withinBucket(t, 3*time.Millisecond, s.Min)
	withinBucket(t, 3*time.Millisecond, tr.Quantile(0))
}

func TestLongSamplesAreClampedAndCounted(t *testing.T) {
	tr := frozen()
	tr.Record(time.Millisecond)
	tr.Record(latency.MaxLatency)
	tr.Record(100 * time.Second)
	tr.Record(time.Hour)
	s := tr.Snapshot()
	assert.Equal(t, int64(4), s.Count)
	assert.Equal(t, int64(3), s.Clamped)
	assert.Equal(t, latency.MaxLatency, s.Max)
	assert.Equal(t, latency.MaxLatency, tr.Quantile(1))
	assert.Equal(t, latency.MaxLatency, tr.Quantile(0.5))
	assert.Greater(t, latency.MaxLatency, 60*time.Second, "the precision target's range fits")
}

func TestQuantileClampsQ(t *testing.T) {
	tr := frozen()
	for _, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond} {
		tr.Record(d)
	}
	lowest, highest := tr.Quantile(0), tr.Quantile(1)
	withinBucket(t, time.Millisecond, lowest)
	withinBucket(t, 4*time.Millisecond, highest)
	assert.Equal(t, lowest, tr.Quantile(-1))
	assert.Equal(t, lowest, tr.Quantile(math.NaN()))
	assert.Equal(t, highest, tr.Quantile(2))
	assert.Equal(t, highest, tr.Quantile(math.Inf(1)))
	withinBucket(t, 2*time.Millisecond, tr.Quantile(0.5), "nearest rank: ⌈0.5·3⌉ = 2nd")
	withinBucket(t, 2*time.Millisecond, tr.Quantile(2.0/3), "⌈2/3·3⌉ = 2nd")
	withinBucket(t, 4*time.Millisecond, tr.Quantile(0.67))
}

func TestSnapshotStatistics(t *testing.T) {
	tr := frozen()
	for _, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 6 * time.Millisecond} {
		tr.Record(d)
	}
	s := tr.Snapshot()
	assert.Equal(t, int64(3), s.Count)
	withinBucket(t, time.Millisecond, s.Min)
	withinBucket(t, 6*time.Millisecond, s.Max)
	withinBucket(t, 3*time.Millisecond, s.Mean)
	assert.Zero(t, s.Clamped)
	assert.Zero(t, s.Negative)
	for _, q := range []float64{0, 0.3, 0.5, 0.9, 1} {
		assert.Equal(t, tr.Quantile(q), s.Quantile(q), "q=%v", q)
	}

	tr.Record(time.Second)
	assert.Equal(t, int64(3), s.Count, "a snapshot is a copy")
}

func TestWindowOption(t *testing.T) {
	assert.Equal(t, latency.DefaultWindow, latency.NewTracker().Window())
	assert.Equal(t, time.Minute, latency.DefaultWindow)
	assert.Equal(t, 3*time.Minute, latency.NewTracker(latency.WithWindow(3*time.Minute)).Window())
	assert.Equal(t, 6*time.Nanosecond, latency.NewTracker(latency.WithWindow(6)).Window())
	assert.Equal(t, 3*time.Nanosecond, latency.NewTracker(latency.WithWindow(5)).Window(), "a whole number of thirds")
	for _, bad := range []time.Duration{-time.Second, 0, 2} {
		assert.Equal(t, latency.DefaultWindow, latency.NewTracker(latency.WithWindow(bad)).Window(), bad)
	}
	assert.Equal(t, latency.DefaultWindow, latency.NewTracker(nil, latency.WithClock(nil)).Window())
}
