package latency_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

// Record allocates an octave's counters on the first sample in it; from
// then on it allocates nothing.
func TestRecordDoesNotAllocateOnceWarmedUp(t *testing.T) {
	tr := latency.NewTracker()
	d := time.Duration(0)
	next := func() {
		tr.Record(d)
		d = (d + 17*time.Microsecond) % (170 * time.Millisecond)
	}
	for range 10_000 {
		next() // every octave from 0 to 170 ms
	}
	allocs := testing.AllocsPerRun(10_000, next)
	assert.Zero(t, allocs)
	assert.Equal(t, int64(20_001), tr.Snapshot().Count)
}

// A tracker allocates lazily: no counters until the first Record, which
// allocates its first stripe and one octave of counters.
func TestTrackerAllocatesLazily(t *testing.T) {
	assert.Equal(t, 2.0, testing.AllocsPerRun(100, func() { latency.NewTracker() }), "the tracker and its options")
	assert.Equal(t, 6.0, testing.AllocsPerRun(100, func() { latency.NewTracker().Record(time.Millisecond) }),
		"and a stripe set, its slice, a stripe and a block")
	tr := latency.NewTracker()
	d := time.Millisecond
	tr.Record(d)
	assert.Equal(t, 1.0, testing.AllocsPerRun(10, func() {
		d *= 2
		tr.Record(d)
	}), "each new octave: one block")
}

func TestThresholdLoadDoesNotAllocate(t *testing.T) {
	tr := latency.NewTracker()
	tr.Record(time.Millisecond)
	th := latency.NewThreshold(latency.SpeculativeRetry{}, tr, readTimeout, latency.WithRefresh(time.Hour))
	now := time.Now()
	th.Load(now) // computes the first value
	allocs := testing.AllocsPerRun(1000, func() {
		if _, ok := th.Load(now); !ok {
			t.Fatal("the default policy speculates")
		}
	})
	assert.Zero(t, allocs)
}

func TestQuantileDoesNotAllocate(t *testing.T) {
	tr := latency.NewTracker()
	tr.Record(time.Millisecond)
	assert.Zero(t, testing.AllocsPerRun(100, func() { tr.Quantile(0.99) }))
}

func TestSnapshotAllocatesOnce(t *testing.T) {
	tr := latency.NewTracker()
	for ms := range 1000 {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	assert.Equal(t, 1.0, testing.AllocsPerRun(10, func() { tr.Snapshot() }))
}
