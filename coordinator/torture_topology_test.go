package coordinator_test

import (
	"context"
	"math/rand/v2"
	"strconv"
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
	"github.com/readpath/readpath/ring"
)

// topoConn is one connection to a node. It refuses while down, answers
// after a short delay otherwise, and notes a request of a read that began
// after the connection was retired (its node replaced or removed).
type topoConn struct {
	ep      replica.Endpoint
	delay   time.Duration
	down    atomic.Bool
	retired atomic.Int64 // the read sequence at retirement; 0 while in use
	stale   *atomic.Int64
}

type readSeq struct{}

func (c *topoConn) Endpoint() replica.Endpoint { return c.ep }

func (c *topoConn) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if r := c.retired.Load(); r != 0 && ctx.Value(readSeq{}).(int64) > r {
		c.stale.Add(1)
	}
	if c.down.Load() {
		return replica.Response{}, replica.ErrConnectionFailed
	}
	select {
	case <-time.After(c.delay):
	case <-ctx.Done():
		return replica.Response{}, ctx.Err()
	}
	return cmd.Respond(replica.Partition{Key: cmd.Key})
}

func (c *topoConn) Apply(context.Context, replica.Mutation) error { return nil }

func (c *topoConn) Probe(ctx context.Context) error {
	if c.down.Load() {
		return replica.ErrConnectionFailed
	}
	return nil
}

// Reads through a coordinator from several goroutines while nodes are
// added, removed and replaced (under their own ID and a new one), the
// detector convicts, probes and forgets them, and the coordinator forgets
// them: no read panics or fails with an untyped error, no read that
// began after a node's replacement or removal returned sends to its old
// connection, and nothing leaks (run with -race).
func TestTortureTopologyChangesUnderReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		var seq, stale atomic.Int64
		seq.Store(1)
		var mu sync.Mutex
		conns := map[string]*topoConn{} // the current connection of each ID
		connect := func(n ring.Node) (replica.Replica, error) {
			c := &topoConn{ep: n.Endpoint(), delay: time.Duration(1+len(n.ID)%3) * time.Millisecond, stale: &stale}
			mu.Lock()
			conns[n.ID] = c
			mu.Unlock()
			return c, nil
		}
		node := func(id int, r *ring.Ring) ring.Node {
			return ring.Node{ID: "n" + strconv.Itoa(id), Datacenter: "dc1", Rack: "r" + strconv.Itoa(id%3), Tokens: ring.RandomTokens(rng, 4, r)}
		}
		var nodes []ring.Node
		for i := range 6 {
			r, _ := ring.New(nodes)
			nodes = append(nodes, node(i, r))
		}
		loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Connect: connect,
			Tables: map[string]consistency.Replication{tbl: consistency.Simple(3)}})
		require.NoError(t, err)
		det, err := ring.NewDetector(ring.DetectorConfig{Replicas: loc.Replica, CheckInterval: 100 * time.Millisecond})
		require.NoError(t, err)
		defer det.Close()
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: det, Outcomes: det})
		require.NoError(t, err)
		defer c.Close()

		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var reads, fails atomic.Int64
		for g := range 4 {
			wg.Go(func() {
				for i := 0; ctx.Err() == nil; i++ {
					rctx := context.WithValue(context.Background(), readSeq{}, seq.Add(1))
					level := []consistency.Level{consistency.One, consistency.Quorum, consistency.All}[i%3]
					_, err := c.Read(rctx, coordinator.Request{Table: tbl, Key: strconv.Itoa(g*100000 + i), Level: level})
					reads.Add(1)
					if err != nil {
						fails.Add(1)
						assert.True(t, isTyped(err), "untyped error: %v", err)
					}
					time.Sleep(time.Millisecond)
				}
			})
		}
		next := 6
		for range 300 {
			time.Sleep(10 * time.Millisecond)
			live := loc.Ring().Nodes()
			victim := live[rng.IntN(len(live))].ID
			mu.Lock()
			vc := conns[victim]
			mu.Unlock()
			switch rng.IntN(5) {
			case 0: // the node fails, or comes back
				vc.down.Store(!vc.down.Load())
			case 1: // replaced under its own ID
				n := node(0, loc.Ring())
				n.ID, n.Rack, n.Tokens = victim, "r"+strconv.Itoa(rng.IntN(3)), nil
				if assert.NoError(t, loc.ReplaceNode(victim, n)) {
					vc.retired.Store(seq.Load())
					det.Forget(victim)
					c.ForgetReplica(victim)
				}
			case 2: // replaced by a new ID
				n := node(next, loc.Ring())
				n.Tokens = nil
				next++
				if assert.NoError(t, loc.ReplaceNode(victim, n)) {
					vc.retired.Store(seq.Load())
					det.Forget(victim)
					c.ForgetReplica(victim)
				}
			case 3:
				if len(live) > 4 {
					require.NoError(t, loc.RemoveNode(victim))
					vc.retired.Store(seq.Load())
					det.Forget(victim)
					c.ForgetReplica(victim)
				}
			default:
				if len(live) < 9 {
					require.NoError(t, loc.AddNode(node(next, loc.Ring())))
					next++
				}
			}
		}
		stop()
		wg.Wait()
		assert.Zero(t, stale.Load(), "requests of reads begun after their connection was retired")
		assert.Positive(t, fails.Load(), "no read failed: the test convicts nothing")
		t.Logf("%d reads, %d failed, %d stale", reads.Load(), fails.Load(), stale.Load())
	})
}
