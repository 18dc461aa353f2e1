package latency_test

import (
	"testing"
	"time"

	"github.com/readpath/readpath/latency"
)

// A Threshold read at times from a clock that steps back (a wall clock,
// such as time.Now().UTC(), corrected after a step forward) refreshes
// again once a refresh interval has passed on the clock as it reads now:
// its next refresh stayed where the clock had been, so the threshold
// stood still, here for a year, whatever the table's latency did.
func TestThresholdRefreshesAfterItsClockSteppedBack(t *testing.T) {
	tr, th, wall := tenMillisThreshold()
	d, _ := th.Load(wall)
	withinBucket(t, 10*time.Millisecond, d)
	wall = wall.Add(365 * 24 * time.Hour)
	th.Load(wall) // a refresh at the time stepped forward
	wall = wall.Add(-365 * 24 * time.Hour)
	recordN(tr, 50*time.Millisecond, 1000) // the table got slower
	wall = wall.Add(2 * latency.DefaultRefresh)
	d, _ = th.Load(wall)
	withinBucket(t, 50*time.Millisecond, d, "two refresh intervals after the clock went back")
	d, _ = th.LoadFor(latency.SpeculativeRetry{}, wall)
	withinBucket(t, 50*time.Millisecond, d, "LoadFor")
}

// LoadFor, called before any Load at the stepped-back time, refreshes too:
// it returned the threshold of the year ahead until Load came.
func TestLoadForRefreshesAfterItsClockSteppedBack(t *testing.T) {
	tr, th, wall := tenMillisThreshold()
	th.Load(wall.Add(365 * 24 * time.Hour)) // a refresh at the time stepped forward
	recordN(tr, 50*time.Millisecond, 1000)  // the table got slower
	d, _ := th.LoadFor(latency.SpeculativeRetry{}, wall.Add(2*latency.DefaultRefresh))
	withinBucket(t, 50*time.Millisecond, d, "two refresh intervals after the clock went back")
}

// A Load whose now is a little before the last refresh, as a caller's
// that read its clock before another's Load refreshed, is no step back:
// within a refresh interval of it, the refreshed threshold stands.
func TestALoadJustBeforeTheRefreshKeepsItsThreshold(t *testing.T) {
	tr, th, wall := tenMillisThreshold()
	th.Load(wall)
	recordN(tr, 50*time.Millisecond, 1000)
	d, _ := th.Load(wall.Add(-time.Millisecond))
	withinBucket(t, 10*time.Millisecond, d, "not refreshed before its interval")
}

// tenMillisThreshold returns a frozen tracker of 1,000 samples of 10 ms,
// the default policy's threshold over it, and a wall-clock time to read it
// at.
func tenMillisThreshold() (*latency.Tracker, *latency.Threshold, time.Time) {
	tr := frozen()
	recordN(tr, 10*time.Millisecond, 1000)
	return tr, latency.NewThreshold(latency.SpeculativeRetry{}, tr, readTimeout), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
}
