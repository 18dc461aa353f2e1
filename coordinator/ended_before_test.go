package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A read whose context has ended before it starts sends nothing, as
// ReadMany starts no key then, and fails as documented: wrapping the
// cancellation, or a timeout that received nothing. It sent its data and
// digest requests, each cancelled as it left: two replica reads of load
// for a read that could not succeed.
func TestAReadWhoseContextHasEndedSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		expired, stop := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer stop()

		_, err := e.c.Read(cancelled, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.ErrorIs(t, err, context.Canceled)
		_, err = e.c.Read(expired, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, consistency.ReadTimeoutError{Level: consistency.Quorum, BlockFor: 2,
			Cause: context.DeadlineExceeded}, *timeout)
		settle()
		assert.Zero(t, e.totalReads())
		m := e.c.Metrics().Total
		assert.Equal(t, [2]int64{1, 1}, [2]int64{m.Cancelled, m.Timeouts})
	})
}
