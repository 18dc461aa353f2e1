package latency

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A probe whose add landed before another goroutine began a new sub-window
// leaves the new one quiet: it ends only the quiet of the sub-window its
// Record saw. Marked busy with no sample, the new sub-window's Records
// would stop reading the clock, and samples after it ended would be filed
// with it until a probe or a query noticed.
func TestProbeAfterARotationLeavesTheNewSubWindowQuiet(t *testing.T) {
	now := time.Unix(1000, 0)
	tr := NewTracker(WithClock(func() time.Time { return now }))
	for range clockEvery - 1 {
		tr.Record(time.Millisecond)
	}
	q := tr.quiet.Load() // the 128th Record reads the mark…
	require.NotZero(t, q, "no counter has reached clockEvery")
	now = now.Add(tr.sub) // …then another goroutine begins the next sub-window…
	tr.advance()
	require.NotEqual(t, q, tr.quiet.Load(), "a new sub-window, quiet")

	set := tr.set.Load() // …before the 128th add's probe runs
	s := set.pick(stackOf())
	c := s.counter(bucketOf(time.Millisecond))
	c.Store(clockEvery)
	tr.probe(set, s, stackOf(), clockEvery, q)
	assert.NotZero(t, tr.quiet.Load(), "the new sub-window has no sample: it stays quiet")

	tr.probe(set, s, stackOf(), 2*clockEvery, tr.quiet.Load())
	assert.Zero(t, tr.quiet.Load(), "a probe of this sub-window ends its quiet")
}

func TestQuietMarksDifferForConsecutiveSubWindows(t *testing.T) {
	for _, e := range []int64{0, 1, 1<<32 - 2, 1<<32 - 1, 1 << 32, 1<<62 + 5} {
		assert.NotZero(t, quietMark(e), e)
		assert.NotEqual(t, quietMark(e), quietMark(e+1), e)
	}
}
