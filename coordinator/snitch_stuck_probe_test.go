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
	"github.com/readpath/readpath/replica/replicatest"
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

// stuckOn makes a coordinator over cl whose replica id hangs on its read
// number hang, and returns the replica's state and a read of key through
// the coordinator.
func stuckOn(t *testing.T, cl *replicatest.Cluster, id string, hang int64, cfg coordinator.Config) (*stuckState, func(context.Context, consistency.Level) (coordinator.Result, error)) {
	st := &stuckState{id: id, hang: hang, release: make(chan struct{})}
	cfg.Liveness = cl
	cfg.Locator = wrapping(cl, 3, func(r replica.Replica) replica.Replica { return stuckFirst{r, st} })
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	t.Cleanup(st.free) // first: Close waits for the stuck read otherwise
	read := func(ctx context.Context, l consistency.Level) (coordinator.Result, error) {
		return c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: l})
	}
	return st, read
}

// askedWithinAMinute reads at QUORUM for a minute, six reset intervals,
// and checks that st's replica, healed, was asked again; then frees its
// stuck read.
func askedWithinAMinute(t *testing.T, st *stuckState, read func(context.Context, consistency.Level) (coordinator.Result, error)) {
	asked := st.n.Load()
	for range 600 {
		_, err := read(context.Background(), consistency.Quorum)
		require.NoError(t, err)
		time.Sleep(100 * time.Millisecond)
	}
	assert.Greater(t, st.n.Load(), asked, "%s, healed, was not asked once in six reset intervals", st.id)
	st.free()
	settle()
}

// A replica whose only requests so far were given up at their read's
// deadline and never returned from (overdue) ranks as missing, and a
// replica that missed is probed by one read once its score is older than
// Snitch.ResetInterval, "or, having never answered, its first miss is"
// (README; snitch.go's expire). Here C's first request hangs for good and
// every later one would be answered at once: whether it answered once
// before or never, it is probed after the interval. Having answered never,
// it was never asked again: expire found neither an answer's date nor a
// first miss's (failedAt was set only when a request ended), so its
// overdue miss never expired (found by review).
func TestAReplicaWhoseFirstRequestsHungIsProbedOnceHealed(t *testing.T) {
	for _, answeredBefore := range []bool{true, false} {
		t.Run(map[bool]string{true: "answered once before", false: "never answered"}[answeredBefore], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				hang := int64(1)
				if answeredBefore {
					hang = 2 // its first read answers, its second hangs
				}
				st, read := stuckOn(t, threeNodes(t), C, hang, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: time.Second})
				if answeredBefore {
					_, err := read(context.Background(), consistency.All)
					require.NoError(t, err)
				}
				_, err := read(context.Background(), consistency.All)
				require.Error(t, err, "C hangs: the read at ALL times out")
				askedWithinAMinute(t, st, read)
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
		st, read := stuckOn(t, threeNodes(t), B, 2, coordinator.Config{DefaultTable: policy(t, "5ms")}) // its second read hangs
		_, err := read(context.Background(), consistency.All)                                           // measures all three
		require.NoError(t, err)
		res, err := read(context.Background(), consistency.Quorum)
		require.NoError(t, err)
		require.True(t, res.Trace.Hedge.Fired, "B hung: the read hedged around it")
		askedWithinAMinute(t, st, read)
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
				policyName := "5ms"
				if how != "hedged around" {
					policyName = "NEVER"
				}
				st, read := stuckOn(t, threeNodes(t), B, 1, coordinator.Config{DefaultTable: policy(t, policyName)})
				if how == "hedged around" {
					res, err := read(context.Background(), consistency.Quorum)
					require.NoError(t, err)
					require.True(t, res.Trace.Hedge.Fired, "B hung on its first request: the read hedged around it")
				} else {
					ctx, cancel := context.WithCancel(context.Background())
					time.AfterFunc(50*time.Millisecond, cancel)
					_, err := read(ctx, consistency.Quorum)
					require.Error(t, err, "B hung on its first request: its caller gave up")
				}
				askedWithinAMinute(t, st, read)
			})
		})
	}
}
