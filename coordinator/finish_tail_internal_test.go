package coordinator

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/latency"
)

// A read has run into its table's tail once it has run at least the tail,
// as inTheTail's doc says: a round cancelled or timed out by its caller
// exactly at the tail is recorded, not left out of the threshold.
func TestAReadAtExactlyTheTailIsInIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, th := startedUnder99p(t)
		require.Equal(t, 10*time.Millisecond, th.Tail(), "half the read timeout before any sample")
		time.Sleep(th.Tail() - time.Nanosecond)
		assert.False(t, r.inTheTail(), "a nanosecond short of the tail")
		time.Sleep(time.Nanosecond)
		assert.True(t, r.inTheTail(), "at the tail")
	})
}

// A round that timed out at its read timeout is recorded whether or not
// it ran into the tail, as timedOutToRecord's doc says: only a caller's
// sooner deadline must reach the tail. Here the read timeout (5 ms) ends
// the round short of a tail learnt under a longer one (10 ms).
func TestATimeoutAtTheReadTimeoutIsRecordedShortOfTheTail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, _ := startedUnder99p(t)
		time.Sleep(5 * time.Millisecond)
		timeout := &consistency.ReadTimeoutError{Level: consistency.Quorum, BlockFor: 2}
		assert.True(t, r.timedOutToRecord(timeout), "at the read timeout")
		r.callers = true
		assert.False(t, r.timedOutToRecord(timeout), "at a caller's deadline short of the tail")
	})
}

// startedUnder99p returns a read started now of a table whose threshold is
// 99p with no samples and a 20 ms read timeout, and that threshold.
func startedUnder99p(t *testing.T) (*read, *latency.Threshold) {
	p, err := latency.Percentile(99)
	require.NoError(t, err)
	th := latency.NewThreshold(p, nil, 20*time.Millisecond)
	r := &read{readState: readState{t: &table{threshold: th}}}
	r.start = time.Now()
	return r, th
}
