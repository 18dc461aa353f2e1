package coordinator_test

import (
	"context"
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

// stuckFirst wraps one replica: its read number hang blocks, ignoring its
// context, until release is closed (a request stuck on a dead
// connection); every read after those is served normally.
type stuckFirst struct {
	replica.Replica
	st *stuckState
}

type stuckState struct {
	id      string
	hang    int64
	n       atomic.Int64 // reads seen
	release chan struct{}
	once    sync.Once
}

func (s stuckFirst) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if s.Endpoint().ID == s.st.id && s.st.n.Add(1) == s.st.hang {
		<-s.st.release
	}
	return s.Replica.Read(ctx, cmd)
}

func (st *stuckState) free() { st.once.Do(func() { close(st.release) }) }

// A replica whose only requests so far were given up at their read's
// deadline and never returned from (overdue) ranks as missing, as the
// README says ("counts as a miss in ranking until the replica answers a
// request sent after it"), and a replica that missed is to be probed by
// one read once its score is older than Snitch.ResetInterval, "or, having
// only ever failed, its first miss is" (README; snitch.go's expire: "One
// that has only ever failed has no score, and its misses expire the same
// way: else it was never asked again at ONE or QUORUM, however long ago it
// healed"). Here C's first request hangs for good and every later one would
// be answered at once: whether it answered once before or never, it is
// probed after the interval. Having answered never, it was never asked
// again: expire found neither an answer's date nor a first miss's
// (failedAt was set only when a request ended), so its overdue miss never
// expired (found by review).
func TestAReplicaWhoseFirstRequestsHungIsProbedOnceHealed(t *testing.T) {
	for _, answeredBefore := range []bool{true, false} {
		t.Run(map[bool]string{true: "answered once before", false: "never answered"}[answeredBefore], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				st := &stuckState{id: C, hang: 1, release: make(chan struct{})}
				defer st.free()
				if answeredBefore {
					st.hang = 2 // its first read answers, its second hangs
				}
				c, err := coordinator.New(coordinator.Config{
					Liveness: cl, DefaultTable: policy(t, "NEVER"), ReadTimeout: time.Second,
					Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return stuckFirst{r, st} }),
				})
				require.NoError(t, err)
				defer c.Close()
				read := func(l consistency.Level) error {
					_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: l})
					return err
				}
				if answeredBefore {
					require.NoError(t, read(consistency.All))
				}
				require.Error(t, read(consistency.All), "C hangs: the read at ALL times out")
				asked := st.n.Load()
				for range 600 { // a minute of QUORUM reads, six reset intervals
					require.NoError(t, read(consistency.Quorum))
					time.Sleep(100 * time.Millisecond)
				}
				assert.Greater(t, st.n.Load(), asked, "C, healed, was not probed once in six reset intervals")
				st.free()
				settle()
			})
		})
	}
}

// A contact that hangs on one request (ignoring its context) while the
// read hedges around it is left with one request out forever: no miss, no
// new latency. Ranked by latency times (1 + requests out), it is behind
// its idle peers for good; with requests out it counts as behind for its
// probe, so a read probes it once its score expires. Neither "missed" nor
// "scores behind the best" by latency, it was never probed, and at QUORUM
// among three never a contact again, though it answered every request sent
// to it (found by review).
func TestAReplicaStuckOnOneLoserIsProbed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		st := &stuckState{id: B, hang: 2, release: make(chan struct{})} // its second read hangs
		defer st.free()
		c, err := coordinator.New(coordinator.Config{
			Liveness: cl, DefaultTable: policy(t, "5ms"),
			Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return stuckFirst{r, st} }),
		})
		require.NoError(t, err)
		defer c.Close()
		read := func(l consistency.Level) coordinator.Result {
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: l})
			require.NoError(t, err)
			return res
		}
		read(consistency.All) // measures all three
		res := read(consistency.Quorum)
		require.True(t, res.Trace.Hedge.Fired, "B hung: the read hedged around it")
		asked := st.n.Load()
		for range 600 { // a minute of QUORUM reads, six reset intervals
			read(consistency.Quorum)
			time.Sleep(100 * time.Millisecond)
		}
		for _, r := range c.Metrics().Replicas {
			t.Logf("%s requests %d misses %d outstanding %d latency %v", r.Endpoint.ID, r.Requests, r.Misses, r.Outstanding, r.Latency)
		}
		assert.Greater(t, st.n.Load(), asked, "B, answering, was not asked once in six reset intervals")
		st.free()
		settle()
	})
}

// A replica whose very first request hangs while the read ends otherwise
// than at its deadline, hedged around or cancelled by its caller, has
// answered nothing, missed nothing and has nothing overdue: the request it
// was abandoned on dates its first miss, so that a read probes it once the
// interval has passed. Undated, it was never asked again (found by review).
func TestAReplicaWhoseFirstRequestWasAbandonedIsProbed(t *testing.T) {
	for _, how := range []string{"hedged around", "cancelled by its caller"} {
		t.Run(how, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				st := &stuckState{id: B, hang: 1, release: make(chan struct{})}
				defer st.free()
				opts := policy(t, "5ms")
				if how != "hedged around" {
					opts = policy(t, "NEVER")
				}
				c, err := coordinator.New(coordinator.Config{
					Liveness: cl, DefaultTable: opts,
					Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return stuckFirst{r, st} }),
				})
				require.NoError(t, err)
				defer c.Close()
				read := func(ctx context.Context) (coordinator.Result, error) {
					return c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				}
				if how == "hedged around" {
					res, err := read(context.Background())
					require.NoError(t, err)
					require.True(t, res.Trace.Hedge.Fired, "B hung on its first request: the read hedged around it")
				} else {
					ctx, cancel := context.WithCancel(context.Background())
					time.AfterFunc(50*time.Millisecond, cancel)
					_, err := read(ctx)
					require.Error(t, err, "B hung on its first request: its caller gave up")
				}
				asked := st.n.Load()
				for range 600 { // a minute of QUORUM reads, six reset intervals
					_, err := read(context.Background())
					require.NoError(t, err)
					time.Sleep(100 * time.Millisecond)
				}
				assert.Greater(t, st.n.Load(), asked, "B, answering, was not asked once in six reset intervals")
				st.free()
				settle()
			})
		})
	}
}
