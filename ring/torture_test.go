package ring_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// tortureNode is node i of dc1, with 4 tokens drawn from its ID, so that
// a node removed and added again holds the same tokens.
func tortureNode(i int) ring.Node {
	id := fmt.Sprint("n", i)
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	return ring.Node{ID: id, Datacenter: "dc1", Rack: fmt.Sprint("r", i%3), Tokens: ring.RandomTokens(rng, 4, nil)}
}

// Locate, from many goroutines, while nodes join, leave and are replaced
// and tables change replication: every answer is a whole topology's, RF
// distinct replicas of the table's replication, each connected as its
// node, never a mix or a torn slice.
func TestTortureLocatorChanges(t *testing.T) {
	var base []ring.Node
	for i := range 4 {
		base = append(base, tortureNode(i))
	}
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: base,
		Tables:  map[string]consistency.Replication{"a": consistency.Simple(3), "b": consistency.Simple(2)},
		Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.New(n.Endpoint()) }})
	require.NoError(t, err)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var located atomic.Int64
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				table := []string{"a", "b"}[i%2]
				reps, repl, err := l.Locate(table, fmt.Sprint("key", g, i))
				require.NoError(t, err)
				checkLocated(t, reps, repl)
				located.Add(1)
			}
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300 || located.Load() < 5000; i++ {
		extra := 4 + rng.IntN(4)
		switch rng.IntN(4) {
		case 0:
			_ = l.AddNode(tortureNode(extra)) // may be in already
		case 1:
			_ = l.RemoveNode(fmt.Sprint("n", extra)) // may be out already
		case 2:
			n := tortureNode(extra)
			n.ID = fmt.Sprint("n", 100+i)
			_ = l.ReplaceNode(fmt.Sprint("n", extra), n) // may be out
		default:
			require.NoError(t, l.SetTable([]string{"a", "b"}[rng.IntN(2)], consistency.Simple(2+rng.IntN(2))))
		}
	}
	close(stop)
	wg.Wait()
	assert.Positive(t, located.Load())
}

func checkLocated(t *testing.T, reps []replica.Replica, repl consistency.Replication) {
	require.Len(t, reps, repl.Total(), "replicas for %v", repl)
	seen := map[string]bool{}
	for _, r := range reps {
		ep := r.Endpoint()
		assert.False(t, seen[ep.ID], "replica %s listed twice", ep.ID)
		seen[ep.ID] = true
		assert.Equal(t, "dc1", ep.Datacenter)
	}
}

// A detector hammered from every side: heartbeats, outcomes that convict
// and readmit (probes in flight, some of which fail or hang), Forget,
// Nodes, Down and Phi, with Close in the middle. Nothing races, panics or
// leaks, and what Nodes and Down say agrees.
func TestTortureDetector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const nodes = 6
		reps := make([]*replicatest.Replica, nodes)
		for i := range reps {
			reps[i] = replicatest.NewReplica(replica.Endpoint{ID: fmt.Sprint("n", i), Datacenter: "dc1"},
				replicatest.WithBehavior(replicatest.Behavior{Latency: replicatest.Uniform(time.Millisecond, 300*time.Millisecond)}))
		}
		var changes atomic.Int64
		d, err := ring.NewDetector(ring.DetectorConfig{InitialInterval: 20 * time.Millisecond,
			CheckInterval: 10 * time.Millisecond, ProbeTimeout: 100 * time.Millisecond, Seed: 1,
			Replicas: func(id string) (replica.Replica, bool) {
				for _, r := range reps {
					if r.Endpoint().ID == id {
						return r, true
					}
				}
				return nil, false
			},
			OnChange: func(ring.Change) { changes.Add(1) }})
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for g := range 4 {
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			wg.Go(func() { detectorChurn(t, ctx, d, reps, rng) })
		}
		time.Sleep(time.Second)
		require.NoError(t, d.Close())
		time.Sleep(200 * time.Millisecond) // calls after Close
		cancel()
		wg.Wait()
		require.NoError(t, d.Close(), "Close is idempotent")
		assert.Positive(t, changes.Load())
	})
}

func detectorChurn(t *testing.T, ctx context.Context, d *ring.Detector, reps []*replicatest.Replica, rng *rand.Rand) {
	for ctx.Err() == nil {
		time.Sleep(time.Duration(1+rng.IntN(10)) * time.Millisecond)
		r := reps[rng.IntN(len(reps))]
		ep := r.Endpoint()
		switch rng.IntN(9) {
		case 0, 1, 2:
			d.Heartbeat(ep.ID, time.Now())
		case 3:
			d.ReportOutcome(replica.Outcome{Replica: r, Endpoint: ep, Err: replica.ErrConnectionFailed})
		case 4:
			d.ReportOutcome(replica.Outcome{Replica: r, Endpoint: ep})
		case 5:
			d.Forget(ep.ID)
		case 6:
			fault := []replicatest.Fault{{}, replicatest.Unreachable(), replicatest.IgnoresContext()}[rng.IntN(3)]
			assert.NoError(t, r.SetFault(fault))
		case 7:
			assert.GreaterOrEqual(t, d.Phi(ep.ID, time.Now()), 0.0)
			d.IsAlive(ep)
		default:
			checkDetectorViews(t, d)
		}
	}
}

// checkDetectorViews checks that a node Nodes lists as down is one it
// says a source convicted, and that Down lists no node twice.
func checkDetectorViews(t *testing.T, d *ring.Detector) {
	for _, n := range d.Nodes(time.Now()) {
		assert.Equal(t, !n.Alive, n.HeartbeatsStopped || n.ConnectionFailed, "%+v", n)
	}
	down := d.Down()
	seen := map[string]bool{}
	for _, id := range down {
		assert.False(t, seen[id], "%s listed twice in %v", id, down)
		seen[id] = true
	}
}
