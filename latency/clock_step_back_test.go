package latency_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// A clock given to WithClock that steps back (a wall clock, such as
// time.Now().UTC(), which has no monotonic reading, corrected after a step
// forward) leaves the window sliding as the clock moves on from where it
// went back: the tracker went on counting the third of the latest time it
// had seen, so nothing left the window until the clock came back there, a
// year later here, and every sample meanwhile piled up in it.
func TestAClockSteppedBackKeepsTheWindowSliding(t *testing.T) {
	wall := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := latency.NewTracker(latency.WithClock(func() time.Time { return wall })) // thirds of 20 s
	for range 1000 {
		tr.Record(100 * time.Millisecond)
	}
	wall = wall.Add(365 * 24 * time.Hour)
	tr.Quantile(0.99) // a threshold's refresh sees the step forward
	wall = wall.Add(-365 * 24 * time.Hour)
	for range 3 {
		wall = wall.Add(time.Minute)
		tr.Quantile(0.99) // a refresh at the minute's first read
		for range 1000 {
			tr.Record(time.Millisecond)
		}
	}
	s := tr.Snapshot()
	assert.Equal(t, int64(1000), s.Count, "the samples of a minute ago have left the window")
	withinBucket(t, time.Millisecond, s.Max, "the samples before the step have left it too")
}
