package replicatest

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// Replica is an in-memory replica.Replica whose speed and faults follow a
// Behavior that may change while a test runs. It is safe for concurrent use.
//
// It starts no goroutine: every request runs in its caller's goroutine and
// waits only on timers and channels, so inside a testing/synctest bubble
// its delays cost no wall time and happen at exact virtual times. Create it,
// with New or NewReplica (the zero Replica is not usable), inside the
// bubble that uses it.
type Replica struct {
	ep      replica.Endpoint
	start   time.Time
	err     error // a construction error every request fails with
	data    store
	stats   counters
	workers *workers
	cluster *factor
	late    *lateness // nil without WithTimerCorrection
	// maxDigest is the newest digest version the replica answers.
	maxDigest byte

	behavior atomic.Pointer[Behavior]
	setMu    sync.Mutex // serialises read-modify-write updates of behavior
	draws    *drawer
}

// New returns an empty replica answering as ep, configured by opts, or a
// *ConfigError if an option is invalid.
func New(ep replica.Endpoint, opts ...Option) (*Replica, error) {
	o := options{seed: idSeed(ep.ID), start: time.Now(), maxDigest: digest.Latest}
	for _, opt := range opts {
		if opt == nil {
			return nil, invalid("option", "nil")
		}
		opt(&o)
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	r := &Replica{
		ep: ep, start: o.start, workers: newWorkers(o.workers, o.queueLimit), cluster: o.cluster,
		draws: newDrawer(o.seed), maxDigest: o.maxDigest,
	}
	if o.timerCorrection {
		r.late = new(lateness)
	}
	r.behavior.Store(&o.behavior)
	return r, nil
}

// NewReplica is New for tests that build replicas from literals: instead of
// returning an error it returns a replica that fails every Read, Apply and
// Probe with the *ConfigError, which Err also returns. It never panics.
func NewReplica(ep replica.Endpoint, opts ...Option) *Replica {
	r, err := New(ep, opts...)
	if err != nil {
		r, _ = New(ep)
		r.err = err
	}
	return r
}

// Err returns the configuration error of a replica made by NewReplica with
// an invalid option, or nil.
func (r *Replica) Err() error { return r.err }

// Endpoint returns the replica's identity.
func (r *Replica) Endpoint() replica.Endpoint { return r.ep }

// MaxDigestVersion implements replica.DigestVersioner: the newest digest
// version the replica answers, digest.Latest unless WithMaxDigestVersion set
// another.
func (r *Replica) MaxDigestVersion() byte { return r.maxDigest }

// Start returns the instant pause windows are measured from: the replica's
// creation, or its cluster's.
func (r *Replica) Start() time.Time { return r.start }

// Stats returns a snapshot of the replica's counts.
func (r *Replica) Stats() Stats { return r.stats.snapshot() }

// Seed sets the replica's version of the partition p.Key of table to a copy
// of p, replacing what it held: seed an older version on one replica to
// make it stale. It returns p's *replica.ValidationError if p is invalid,
// and then changes nothing. Seeding is not a request: it is not counted,
// delayed or failed by the Behavior.
func (r *Replica) Seed(table string, p replica.Partition) error {
	if err := p.Validate(); err != nil {
		return err
	}
	r.data.put(table, p)
	return nil
}

// Partition returns a copy of the replica's version of (table, key) and
// whether it holds one, without going through the Behavior.
func (r *Replica) Partition(table, key string) (replica.Partition, bool) {
	e := r.data.get(table, key)
	if e == nil {
		return replica.Partition{}, false
	}
	return e.view().p.Clone(), true
}
