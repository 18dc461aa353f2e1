package latency_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// recordConcurrently has writers goroutines record perWriter samples each
// (every 100th negative, every 100th clamped) while another goroutine keeps
// querying, and returns once all are done. Writer 0 calls tick before each
// of its samples.
func recordConcurrently(tr *latency.Tracker, writers, perWriter int, tick func(i int)) {
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
				_ = tr.Snapshot()
				_ = tr.Quantile(0.99)
			}
		}
	})
	var writersWG sync.WaitGroup
	for w := range writers {
		writersWG.Go(func() {
			for i := range perWriter {
				if w == 0 && tick != nil {
					tick(i)
				}
				switch i % 100 {
				case 0:
					tr.Record(-time.Millisecond)
				case 1:
					tr.Record(2 * latency.MaxLatency)
				default:
					tr.Record(time.Duration(w*perWriter+i) * time.Microsecond)
				}
			}
		})
	}
	writersWG.Wait()
	close(done)
	wg.Wait()
}

func TestConcurrentRecordLosesNothing(t *testing.T) {
	const writers, perWriter = 16, 20_000
	tr := frozen()
	recordConcurrently(tr, writers, perWriter, nil)

	s := tr.Snapshot()
	total := int64(writers * perWriter)
	assert.Equal(t, total-total/100, s.Count, "every non-negative sample")
	assert.Equal(t, total/100, s.Negative)
	assert.Equal(t, total/100, s.Clamped)
}

// The window slides while writers record: a rotation copies the counters
// under their feet, and must neither lose nor double a sample.
func TestConcurrentRecordAcrossRotations(t *testing.T) {
	const writers, perWriter = 8, 20_000
	var hours atomic.Int64
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return start.Add(time.Duration(hours.Load()) * time.Hour) }
	// Thirds of two hours: the two rotations, at 2 h and 4 h, keep every
	// sample in the window.
	tr := latency.NewTracker(latency.WithWindow(6*time.Hour), latency.WithClock(clock))
	const perHour = perWriter / 6
	recordConcurrently(tr, writers, perWriter, func(i int) {
		if i > 0 && i%perHour == 0 && hours.Load() < 5 {
			hours.Add(1)
		}
	})
	require.Equal(t, int64(5), hours.Load(), "the clock moved on while writers recorded")

	total := int64(writers * perWriter)
	assert.Equal(t, total-total/100, tr.Snapshot().Count)

	hours.Store(6)
	s := tr.Snapshot()
	assert.LessOrEqual(t, s.Count, total-total/100-(2*perHour-2*2*perHour/100),
		"after a full window writer 0's first two hours of samples are gone")
}
