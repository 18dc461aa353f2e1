package latency_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// snapshotOf returns the snapshot of a tracker that recorded 1 ms … 100 ms,
// one sample per millisecond: its p50 is 50 ms and its p99 99 ms.
func snapshotOf(t *testing.T) latency.Snapshot {
	t.Helper()
	tr := frozen()
	for ms := 1; ms <= 100; ms++ {
		tr.Record(time.Duration(ms) * time.Millisecond)
	}
	return tr.Snapshot()
}

func TestCompute(t *testing.T) {
	snap := snapshotOf(t)
	p99 := snap.Quantile(0.99)
	withinBucket(t, 99*time.Millisecond, p99)
	const previous = 7 * time.Second
	tests := []struct {
		policy    string
		want      time.Duration
		speculate bool
		wantEmpty time.Duration // on an empty snapshot
	}{
		{"NEVER", 0, false, 0},
		{"ALWAYS", 0, true, 0},
		{"99p", p99, true, previous},
		{"50p", snap.Quantile(0.5), true, previous},
		{"20ms", 20 * time.Millisecond, true, 20 * time.Millisecond},
		{"MIN(99p,20ms)", 20 * time.Millisecond, true, previous},
		{"MIN(99p,200ms)", p99, true, previous},
		{"MAX(99p,20ms)", p99, true, previous},
		{"MAX(99p,200ms)", 200 * time.Millisecond, true, previous},
	}
	for _, tt := range tests {
		p, err := latency.ParseSpeculativeRetry(tt.policy)
		require.NoError(t, err)
		d, ok := p.Compute(snap, previous)
		assert.Equal(t, tt.want, d, tt.policy)
		assert.Equal(t, tt.speculate, ok, tt.policy)

		d, ok = p.Compute(latency.Snapshot{}, previous)
		assert.Equal(t, tt.wantEmpty, d, "%s on an empty window", tt.policy)
		assert.Equal(t, tt.speculate, ok, "%s on an empty window", tt.policy)
	}
	withinBucket(t, 50*time.Millisecond, snap.Quantile(0.5))
}

// A snapshot whose samples were all negative is empty too.
func TestComputeOnOnlyNegativeSamplesKeepsPrevious(t *testing.T) {
	tr := frozen()
	tr.Record(-time.Second)
	d, ok := latency.SpeculativeRetry{}.Compute(tr.Snapshot(), 3*time.Second)
	assert.Equal(t, 3*time.Second, d)
	assert.True(t, ok)
}
