package coordinator

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// A read has run into its table's tail once it has run at least the tail,
// as inTheTail's doc says: a round cancelled or timed out by its caller
// exactly at the tail is recorded, not left out of the threshold.
func TestAReadAtExactlyTheTailIsInIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, err := latency.Percentile(99)
		require.NoError(t, err)
		th := latency.NewThreshold(p, nil, 20*time.Millisecond)
		require.Equal(t, 10*time.Millisecond, th.Tail(), "half the read timeout before any sample")
		r := &read{readState: readState{t: &table{threshold: th}}}
		r.start = time.Now()
		time.Sleep(th.Tail() - time.Nanosecond)
		assert.False(t, r.inTheTail(), "a nanosecond short of the tail")
		time.Sleep(time.Nanosecond)
		assert.True(t, r.inTheTail(), "at the tail")
	})
}
