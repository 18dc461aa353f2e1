package latency

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A counter's clockEvery-th add whose probe runs after a rotation drained
// it leaves the new sub-window quiet: probe's load then store of quiet
// marked it busy with no sample, and its Records stopped reading the clock,
// so samples after it ended were filed with it until a probe or a query
// noticed (found by review: a Snapshot a second after the only sample of
// the last 4 s counted none).
func TestProbeAfterARotationLeavesTheNewSubWindowQuiet(t *testing.T) {
	now := time.Unix(1000, 0)
	tr := NewTracker(WithClock(func() time.Time { return now }))
	for range clockEvery - 1 {
		tr.Record(time.Millisecond)
	}
	set := tr.set.Load()
	s := set.pick(stackOf())
	c := s.counter(bucketOf(time.Millisecond))
	require.NotNil(t, c)
	v := c.Add(1) // the clockEvery-th add…
	require.Equal(t, uint32(clockEvery), v)
	now = now.Add(tr.sub) // …then another goroutine begins the next sub-window…
	tr.advance()
	require.True(t, tr.quiet.Load(), "a new sub-window, quiet")

	tr.probe(set, s, c, stackOf(), v) // …before the add's probe runs
	assert.True(t, tr.quiet.Load(), "the new sub-window has no sample: it stays quiet")

	c.Store(clockEvery) // this sub-window's own clockEvery-th add
	tr.probe(set, s, c, stackOf(), clockEvery)
	assert.False(t, tr.quiet.Load(), "a counter of this sub-window reached clockEvery")
}
