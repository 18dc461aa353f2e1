package ring

import (
	"context"
	"hash/maphash"
	"maps"
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
//     (replica.Prober), through its current connection if Replicas is set,
//     with capped exponential backoff until it answers, or without a Prober
//     readmitted after ReadmitAfter.
//
// A node is alive unless a source convicted it; a node never heard of is
// alive. IsAlive takes no lock and allocates nothing. The detector runs a
// goroutine that evaluates phi and delivers OnChange, and one for each
// replica convicted for connection failures, which probes it or waits out
// ReadmitAfter; Close stops them (see Close for a Probe that ignores its
// context). A Detector is safe for concurrent use. The zero Detector is not
// usable (coordinator.New refuses it: see Validate): make one with
// NewDetector.
type Detector struct {
	cfg DetectorConfig
	// nodes is what the lock-free paths read. It holds every node that
	// has been convicted or had a connection failure. A node outside it is
	// alive with no failures, as one never heard of is, so a node learned
	// by heartbeat joins it only at its first conviction or failure, and
	// then alone: adding one to a copy of a map made n nodes cost O(n²),
	// learned at once or failing at once.
	nodes atomic.Pointer[nodeTable]
	// addMu guards all and serialises changes to nodes. It is taken
	// under a tracked's mu (set publishes), never the other way round.
	addMu  sync.Mutex
	all    map[string]*tracked // every node tracked
	seed   uint64
	events eventQueue

	ctx    context.Context
	stop   context.CancelFunc
	goMu   sync.RWMutex // orders goroutine starts before Close's wait
	closed bool

	// hung holds, by node ID, the probes abandoned at ProbeTimeout that
	// still run. It outlives a node's Forget: a node forgotten and
	// convicted again through the same hanging connection was charged
	// none of them, and each cycle left more goroutines behind.
	hungMu sync.Mutex
	hung   map[string][]*hungProbe
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
	id       string

	mu          sync.Mutex // guards the fields below; never held across a wait
	gone        bool       // forgotten: no more transitions
	ep          replica.Endpoint
	rep         replica.Replica
	window      *ArrivalWindow // nil until the first heartbeat
	convictions int            // its transitions from alive to down

	// ctx ends when the node is forgotten or the detector closes; its
	// probes and readmission wait on it. ctx, cancel and rng are made at
	// the first conviction by connection failures, under mu, and never
	// change after, so the goroutines started then read them without mu.
	// Most nodes never need them, and making them for every node learned
	// took half of learning's time.
	ctx    context.Context
	cancel context.CancelFunc
	rng    *rand.Rand // the probes' jitter
}

// NewDetector returns a running detector, or a *ConfigError.
func NewDetector(cfg DetectorConfig) (*Detector, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d := &Detector{cfg: cfg, seed: cfg.Seed, events: newEventQueue(cfg.OnChange != nil), all: map[string]*tracked{}}
	if d.seed == 0 {
		d.seed = rand.Uint64()
	}
	d.nodes.Store(newNodeTable(16, maphash.MakeSeed(), &tracked{}))
	d.ctx, d.stop = context.WithCancel(context.Background())
	d.start(d.monitor)
	return d, nil
}

// IsAlive reports whether ep's node is up: not convicted, or never heard of.
func (d *Detector) IsAlive(ep replica.Endpoint) bool {
	t := d.nodes.Load().get(ep.ID)
	return t == nil || t.down.Load() == 0
}

// Down returns the IDs of the convicted nodes, sorted.
func (d *Detector) Down() []string {
	// A convicted node is in nodes: set publishes it first.
	return convicted(d.nodes.Load().each)
}

// convicted returns the IDs of the convicted nodes each yields, sorted,
// each once. The table changes in place as each runs: a node convicted,
// forgotten and convicted again meanwhile can be met twice, once in the
// slot it left, read before Forget, and once in the slot it came back to,
// further along its probe sequence, read after.
func convicted(each func(func(*tracked) bool)) []string {
	var out []string
	each(func(t *tracked) bool {
		if t.down.Load() != 0 {
			out = append(out, t.id)
		}
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// Phi returns the phi of node id at now, 0 for a node without heartbeats.
func (d *Detector) Phi(id string, now time.Time) float64 {
	d.addMu.Lock()
	t := d.all[id]
	d.addMu.Unlock()
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
// progress see their context cancelled, and Close does not wait for the
// Probe calls themselves to return (one that ignores its context could
// hold it up to its ProbeTimeout): a Probe may still be returning after
// Close. OnChange is not called after Close returns. It must not be called
// from OnChange or Replicas, whose goroutines it waits for. Close is
// idempotent and returns nil.
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
	if t := d.nodes.Load().get(id); t != nil {
		return t
	}
	d.addMu.Lock()
	defer d.addMu.Unlock()
	if t := d.all[id]; t != nil {
		return t
	}
	t := &tracked{id: id, ep: replica.Endpoint{ID: id}}
	d.all[id] = t
	return t
}

// publish puts t into nodes, unless it is there already or was
// forgotten. Call it before t's first conviction or connection failure,
// which the lock-free paths must see.
func (d *Detector) publish(t *tracked) {
	if d.nodes.Load().get(t.id) == t {
		return
	}
	d.addMu.Lock()
	defer d.addMu.Unlock()
	tb := d.nodes.Load()
	if d.all[t.id] != t || tb.get(t.id) != nil { // nodes holds only nodes of all
		return
	}
	d.nodes.Store(tb.add(t))
}

// snapshot returns every node tracked, in buf.
func (d *Detector) snapshot(buf []*tracked) []*tracked {
	d.addMu.Lock()
	defer d.addMu.Unlock()
	return slices.AppendSeq(buf[:0], maps.Values(d.all))
}

func hashID(id string) uint64 { return uint64(token(id)) }

// set adds conviction bit to t, and reports a transition to down. t.mu
// must be held.
func (d *Detector) set(t *tracked, bit uint32, cause Cause, at time.Time) bool {
	was := t.down.Load()
	if t.gone || was&bit != 0 {
		return false
	}
	d.publish(t)
	t.down.Store(was | bit)
	if was == 0 {
		t.convictions++
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
