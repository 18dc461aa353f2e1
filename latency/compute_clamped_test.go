package latency_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// A percentile the tracker clamped at MaxLatency stands for any latency
// at or past it. MIN with a longer delay is then the delay (the true
// minimum is at most the delay, and may be under a timeout the clamped
// value reads as reached); MAX stays at MaxLatency whatever its delay (the
// true maximum is at least the percentile, past what a tracker tells, and
// a delay of 80 s under a 100 s timeout would hedge a timeout storm).
func TestComputeOnAClampedPercentile(t *testing.T) {
	tr := frozen()
	for range 100 {
		tr.Record(2 * latency.MaxLatency)
	}
	snap := tr.Snapshot()
	require.Equal(t, latency.MaxLatency, snap.Quantile(0.99))
	for _, c := range []struct {
		policy string
		want   time.Duration
	}{
		{"MIN(99p,80000ms)", 80 * time.Second},
		{"MIN(99p,50ms)", 50 * time.Millisecond},
		{"MAX(99p,80000ms)", latency.MaxLatency},
		{"MAX(99p,50ms)", latency.MaxLatency},
		{"99p", latency.MaxLatency},
	} {
		p, err := latency.ParseSpeculativeRetry(c.policy)
		require.NoError(t, err)
		got, speculate := p.Compute(snap, time.Second)
		assert.True(t, speculate, c.policy)
		assert.Equal(t, c.want, got, c.policy)
	}
}
