package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
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

// Nor does a hedge's loser stuck for good, once the replica's probe has
// answered: A's request lost to B's hedge never ended, so it was no miss,
// and A, the fastest, was weighed down by it for good: it served 6 of 600
// reads, its probes (found by review).
func TestAHedgeLoserStuckForGoodDoesNotWeighAReplicasRank(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.c.Close()
		e.behave(t, B, constant(ms(1.5)))
		e.behave(t, C, constant(ms(1.5)))
		armed, release := new(atomic.Bool), make(chan struct{})
		defer close(release)
		c, err := coordinator.New(coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "10ms"),
			Liveness: e.cluster,
			Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica {
				return stuckOnce{r, armed, release}
			})})
		require.NoError(t, err)
		defer c.Close()
		read := func() coordinator.Result {
			t.Helper()
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			require.NoError(t, err)
			return res
		}
		for range 40 { // A, at 1 ms, is every read's replica
			read()
			time.Sleep(ms(100))
		}
		armed.Store(true)
		res := read()
		require.Len(t, res.Trace.Requests, 2, "B's hedge answers for A's stuck request")
		before := e.stats(A).Reads
		for range 600 {
			time.Sleep(ms(100))
			read()
		}
		assert.Greater(t, e.stats(A).Reads-before, int64(450), "A serves reads again once its probe answers")
	})
}
