package ring

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/replica"
)

// Detector is a failure detector: a coordinator.Liveness that learns which
// nodes are down from two sources, and a replica.OutcomeReporter.
//
//   - Heartbeats the embedder reports (Heartbeat), judged by phi accrual as
//     Cassandra's FailureDetector judges gossip: a node is convicted when
//     phi exceeds PhiConvictThreshold, and readmitted by its next heartbeat.
//   - The coordinator's own outcomes (ReportOutcome), as gocql judges its
//     connections: ConnectionFailures connection failures in a row convict
//     a replica; timeouts and other errors never do. It is then probed
//     (replica.Prober) with capped exponential backoff until it answers, or
//     without a Prober readmitted after ReadmitAfter.
//
// A node is alive unless a source convicted it; a node never heard of is
// alive. IsAlive takes no lock and allocates nothing. The detector runs a
// goroutine that evaluates phi, delivers OnChange and probes; Close stops
// it. A Detector is safe for concurrent use.
type Detector struct {
	cfg    DetectorConfig
	nodes  atomic.Pointer[map[string]*tracked]
	addMu  sync.Mutex // serialises changes to nodes (additions, Forget)
	seed   uint64
	events eventQueue

	ctx    context.Context
	stop   context.CancelFunc
	goMu   sync.RWMutex // orders goroutine starts before Close's wait
	closed bool
	wg     sync.WaitGroup
}

// Conviction bits of tracked.down.
const (
	downPhi uint32 = 1 << iota
	downConn
)

// tracked is the detector's view of one node.
type tracked struct {
	down     atomic.Uint32 // conviction bits; written under mu
	failures atomic.Int32  // connection failures since the last success

	// ctx ends when the node is forgotten or the detector closes; its
	// probes and readmission wait on it.
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex // guards the fields below; never held across a wait
	gone   bool       // forgotten: no more transitions
	ep     replica.Endpoint
	rep    replica.Replica
	window *ArrivalWindow // nil until the first heartbeat
	rng    *rand.Rand     // the probes' jitter
}

// NewDetector returns a running detector, or a *ConfigError.
func NewDetector(cfg DetectorConfig) (*Detector, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d := &Detector{cfg: cfg, seed: cfg.Seed, events: newEventQueue(cfg.OnChange != nil)}
	if d.seed == 0 {
		d.seed = rand.Uint64()
	}
	d.nodes.Store(&map[string]*tracked{})
	d.ctx, d.stop = context.WithCancel(context.Background())
	d.start(d.monitor)
	return d, nil
}

// IsAlive reports whether ep's node is up: not convicted, or never heard of.
func (d *Detector) IsAlive(ep replica.Endpoint) bool {
	t := (*d.nodes.Load())[ep.ID]
	return t == nil || t.down.Load() == 0
}

// Down returns the IDs of the convicted nodes, sorted.
func (d *Detector) Down() []string {
	var out []string
	for id, t := range *d.nodes.Load() {
		if t.down.Load() != 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Phi returns the phi of node id at now, 0 for a node without heartbeats.
func (d *Detector) Phi(id string, now time.Time) float64 {
	t := (*d.nodes.Load())[id]
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.window == nil {
		return 0
	}
	return t.window.Phi(now)
}

// Close stops the detector's goroutines and waits for them; probes in
// progress see their context cancelled, and one that ignores it is
// abandoned to its replica. OnChange is not called after Close returns.
// Close is idempotent and returns nil.
func (d *Detector) Close() error {
	d.goMu.Lock()
	d.closed = true
	d.goMu.Unlock()
	d.stop()
	d.wg.Wait()
	return nil
}

// start runs f on a goroutine that Close waits for, unless closed.
func (d *Detector) start(f func()) {
	d.goMu.RLock()
	defer d.goMu.RUnlock()
	if d.closed {
		return
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		f()
	}()
}

// track returns the state of node id, creating it.
func (d *Detector) track(id string) *tracked {
	if t := (*d.nodes.Load())[id]; t != nil {
		return t
	}
	d.addMu.Lock()
	defer d.addMu.Unlock()
	old := *d.nodes.Load()
	if t := old[id]; t != nil {
		return t
	}
	t := &tracked{ep: replica.Endpoint{ID: id}, rng: rand.New(rand.NewPCG(d.seed, hashID(id)))}
	t.ctx, t.cancel = context.WithCancel(d.ctx)
	next := make(map[string]*tracked, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[id] = t
	d.nodes.Store(&next)
	return t
}

func hashID(id string) uint64 { return uint64(token(id)) }

// set adds conviction bit to t, and reports a transition to down. t.mu
// must be held.
func (d *Detector) set(t *tracked, bit uint32, cause Cause, at time.Time) bool {
	was := t.down.Load()
	if t.gone || was&bit != 0 {
		return false
	}
	t.down.Store(was | bit)
	if was == 0 {
		d.events.push(Change{Endpoint: t.ep, Alive: false, Cause: cause, At: at})
	}
	return true
}

// clear removes conviction bit from t, and reports a transition to up.
// t.mu must be held.
func (d *Detector) clear(t *tracked, bit uint32, cause Cause, at time.Time) {
	was := t.down.Load()
	if t.gone || was&bit == 0 {
		return
	}
	t.down.Store(was &^ bit)
	if was == bit {
		d.events.push(Change{Endpoint: t.ep, Alive: true, Cause: cause, At: at})
	}
}
