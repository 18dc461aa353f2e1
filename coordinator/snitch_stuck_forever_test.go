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

// A replica's request stuck for good past its read's deadline (a
// connection that never returns) does not weigh the replica's rank as a
// request queued on it once the replica has answered a request sent after
// it: stuck, it says nothing of the replica's load. Weighed so, A, at 1 ms
// the fastest, ranked behind B and C at 1.5 ms for good, and served only
// its probes, 6 of 600 reads (found by review).
func TestARequestStuckForGoodDoesNotWeighAReplicasRank(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c, armed, release := stuckOnA(t)
		defer close(release)
		e.behave(t, B, constant(ms(1.5)))
		e.behave(t, C, constant(ms(1.5)))
		read := func() error {
			_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			return err
		}
		for range 20 { // B and C measured at 1.5 ms
			require.NoError(t, read())
			time.Sleep(ms(100))
		}
		armed.Store(true)
		require.Error(t, read(), "A's stuck request times the read out")
		before := e.stats(A).Reads
		for range 600 { // 60 s: A is probed once its last answer is 10 s old
			time.Sleep(ms(100))
			require.NoError(t, read())
		}
		assert.Greater(t, e.stats(A).Reads-before, int64(450), "A serves reads again once its probe answers")
	})
}
