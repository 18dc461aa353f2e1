package latency_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

func TestRecordDoesNotAllocate(t *testing.T) {
	tr := latency.NewTracker()
	d := time.Duration(0)
	allocs := testing.AllocsPerRun(10_000, func() {
		tr.Record(d)
		d += 17 * time.Microsecond
	})
	assert.Zero(t, allocs)
	assert.Equal(t, int64(10_001), tr.Snapshot().Count)
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
