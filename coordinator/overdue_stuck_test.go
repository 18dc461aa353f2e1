package coordinator_test

import (
	"context"
	"errors"
	"sync"
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

// stuckOnce is a replica whose next read, once armed, hangs until
// released, ignoring its context, and then fails; every other read is the
// replica's own.
type stuckOnce struct {
	replica.Replica
	armed   *atomic.Bool
	release <-chan struct{}
}

func (s stuckOnce) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if s.armed.CompareAndSwap(true, false) {
		<-s.release
		return replica.Response{}, errors.New("connection reset")
	}
	return s.Replica.Read(ctx, cmd)
}

// A healthy replica, the fastest by far, with one request stuck past its
// read's deadline ranks as missing only until it answers a request sent
// after that one: the read right after the timeout goes elsewhere, and once
// the replica's probe answers (Snitch.ResetInterval after its last answer)
// it serves reads again, though the stuck request is still out. Counted
// overdue until the stuck request returned, it got none of 600 reads where
// it had got 588, and the probe it claimed went elsewhere, its request out
// weighing it down (found by review). And when the stuck request fails at
// last, that is no miss for ranking: the replica answered later requests.
func TestAReplicaWithOneStuckRequestServesReadsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c, armed, release := stuckOnA(t)
		read := func() coordinator.Result {
			t.Helper()
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			require.NoError(t, err)
			return res
		}
		armed.Store(true)
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "A's stuck request times the read out")
		assert.NotEqual(t, A, read().Trace.Requests[0].Endpoint, "the read right after asks another")

		before := e.stats(A).Reads
		for range 600 { // 60 s: six intervals
			time.Sleep(ms(100))
			read()
		}
		assert.Greater(t, e.stats(A).Reads-before, int64(450), "A serves reads again once its probe answers")
		close(release) // the stuck request fails, a minute late for its read
		settle()
		assert.Equal(t, A, read().Trace.Requests[0].Endpoint,
			"a request sent before one the replica answered is no miss for ranking when it ends")
	})
}

// stuckOnA is newEnv's cluster with A at 1 ms and B and C at 5 ms, read by
// a coordinator (ReadTimeout 100 ms, NEVER) through a stuckOnce A, after
// 20 reads that make A every read's replica at ONE.
func stuckOnA(t *testing.T) (e *env, c *coordinator.Coordinator, armed *atomic.Bool, release chan struct{}) {
	t.Helper()
	e = newEnv(t, coordinator.Config{})
	e.c.Close()
	e.behave(t, B, constant(ms(5)))
	e.behave(t, C, constant(ms(5)))
	armed, release = new(atomic.Bool), make(chan struct{})
	c, err := coordinator.New(coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "NEVER"),
		Liveness: e.cluster,
		Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica {
			return stuckOnce{r, armed, release}
		})})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	for range 20 {
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		require.NoError(t, err)
		settle()
	}
	return e, c, armed, release
}

// A replica that answered a request sent after its stuck one is not
// missing when the stuck one's read times out, however soon after the
// stuck one it was sent: ordered by send times kept to the millisecond,
// with an answer to one sent 0.5 ms before the stuck one, one sent 0.3 ms
// after left the replica missing until its probe, and it served none of
// the next 50 reads (found by review).
func TestAnAnswerSentJustAfterAStuckRequestKeepsTheReplicaRanked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c, armed, release := stuckOnA(t)
		defer close(release)
		read := func() (coordinator.Result, error) {
			return c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		}
		time.Sleep(ms(10))
		var wg sync.WaitGroup
		var first, later string
		wg.Go(func() { // answered in 1 ms
			res, err := read()
			if assert.NoError(t, err) {
				first = res.Trace.Requests[0].Endpoint
			}
		})
		wg.Go(func() { // sent 0.5 ms later, stuck, timing out at 100 ms
			time.Sleep(500 * time.Microsecond)
			armed.Store(true)
			_, err := read()
			assert.Error(t, err)
		})
		wg.Go(func() { // sent 0.3 ms after the stuck one, answered in 1 ms
			time.Sleep(800 * time.Microsecond)
			res, err := read()
			if assert.NoError(t, err) {
				later = res.Trace.Requests[0].Endpoint
			}
		})
		wg.Wait()
		require.Equal(t, A, first)
		require.Equal(t, A, later)
		before := e.stats(A).Reads
		for range 50 { // 5 s, half Snitch.ResetInterval
			time.Sleep(ms(100))
			_, err := read()
			require.NoError(t, err)
		}
		assert.Equal(t, int64(50), e.stats(A).Reads-before, "A answered a request sent after its stuck one")
	})
}
