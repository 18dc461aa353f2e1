package coordinator

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/stripe"
	"github.com/readpath/readpath/latency"
)

// ErrClosed is returned by reads on a Coordinator after Close, before
// anything is sent. It matches retry.ErrNotSent too, so that a retry
// executor tries the next coordinator of its plan, as a driver moves on
// from a node it has no connection to.
var ErrClosed error = closedError{}

// closedError is ErrClosed's type: a comparable value, so that err ==
// ErrClosed still holds, whose Is method matches retry.ErrNotSent (package
// retry cannot import this one, which imports it).
type closedError struct{}

func (closedError) Error() string { return "coordinator: closed" }

func (closedError) Is(target error) bool { return target == retry.ErrNotSent }

// Coordinator runs reads against the replicas its Locator finds. It is
// safe for concurrent use by any number of goroutines. Close it when done:
// until then it keeps idle goroutines to run replica requests on, and
// ASYNC read repairs run in the background. (A Coordinator dropped without
// Close lets its idle goroutines go when it is garbage collected, which it
// never is once an ASYNC repair has started the repair goroutines: they
// keep it, and run, until Close.) Inside a testing/synctest bubble, create
// it in the bubble that uses it. The zero Coordinator is not usable: make
// one with New.
type Coordinator struct {
	cfg      Config
	placer   PlacementLocator // cfg.Locator, if it is one
	tables   sync.Map         // table name -> *table: lock-free reads, O(1) additions
	snitch   snitch
	latency  *latency.Tracker // every successful read, for Metrics
	inFlight stripe.Int64     // reads running: striped, summed only to decide a hedge
	// dealer gives each reading goroutine its stripe of inFlight, of the
	// tables' hot counters and of the worker pool; nextDeal is the
	// snitchClock.Nanos before which it deals no more (see noteReader).
	dealer   stripe.Dealer
	nextDeal atomic.Int64
	closed   atomic.Bool
	repairs  repairQueue
	workers  *workers // run the replica requests
	// unplaced is the state reads of a table without one start with, and
	// counts those whose Locate failed: a table gets state of its own
	// only once a read of it is placed, so unknown names leave none.
	unplaced *table
	// Kept for reuse: read states, calls and read timers.
	reads, calls, timers sync.Pool

	// dropped sums the counters of dropped tables, for Metrics().Total;
	// dropMu orders DropTable against Metrics, so that a table is counted
	// once, in Tables or in dropped. Last, away from what reads touch.
	dropped TableMetrics
	dropMu  sync.RWMutex
	// late counts the repairs of dropped tables sent or ended after the
	// drop (see countRepairs), for Metrics().Total.
	late counters
	// since is when New made the coordinator: Metrics().Total.Since;
	// lastSince is the UnixNano of the last table's (see newSince).
	since     time.Time
	lastSince atomic.Int64
}

// New returns a Coordinator for cfg, or an error wrapping ErrInvalidConfig.
func New(cfg Config) (*Coordinator, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Coordinator{cfg: cfg, snitch: newSnitch(cfg.Snitch), workers: new(workers), since: now()}
	c.placer, _ = cfg.Locator.(PlacementLocator)
	c.snitch.abandonCap = int64(max(cfg.MaxAbandonedPerReplica, 0)) // negative: none
	c.reads.New = func() any { return new(read) }
	c.calls.New = func() any { return new(call) }
	c.timers.New = func() any { return new(readTimer) }
	runtime.AddCleanup(c, (*workers).close, c.workers)
	c.latency = latency.NewTracker(c.trackerOptions()...)
	c.unplaced = c.newTable("", cfg.DefaultTable)
	// In name order: each table's Since is a tick past the last one's
	// (see newSince), which in map order would differ from run to run.
	for _, name := range slices.Sorted(maps.Keys(cfg.Tables)) {
		c.tables.Store(name, c.newTable(name, cfg.Tables[name]))
	}
	c.repairs.init(c)
	return c, nil
}

// SetTableOptions changes a table's options at run time, like ALTER TABLE.
// It sets every option, a zero field to its default: to change one, take
// the table's from TableOptions, change it and pass it back. Reads
// already running finish with the options they started with. It is
// safe to call while reads run, and concurrently: the table ends with the
// options of one call. An empty table name gets an error wrapping
// ErrInvalidRequest, invalid options one wrapping ErrInvalidConfig (as New
// reports them), and neither changes anything.
func (c *Coordinator) SetTableOptions(table string, o TableOptions) error {
	if table == "" {
		return fmt.Errorf("%w: empty table name", ErrInvalidRequest)
	}
	if err := o.validate(); err != nil {
		return fmt.Errorf("%w: table %q: %w", ErrInvalidConfig, table, err)
	}
	for !c.setOptions(c.addTable(table, o), o) {
	}
	return nil
}

// setOptions sets t's options and its thresholds' policies, unless
// DropTable dropped t since it was found: set, the options would go with
// it, and the table made again under its name would read with the
// defaults though SetTableOptions had returned.
func (c *Coordinator) setOptions(t *table, o TableOptions) bool {
	c.dropMu.RLock() // DropTable waits, or has dropped t
	defer c.dropMu.RUnlock()
	if t.dropped {
		return false
	}
	t.setMu.Lock() // the options and both thresholds change together
	defer t.setMu.Unlock()
	t.opts.Store(&o)
	t.threshold.SetPolicy(o.SpeculativeRetry)
	t.writeThreshold.SetPolicy(o.AdditionalWritePolicy)
	return true
}

// TableOptions returns the options reads of table run with.
func (c *Coordinator) TableOptions(table string) TableOptions {
	if t, ok := c.lookup(table); ok {
		return *t.opts.Load()
	}
	return c.cfg.DefaultTable
}

// Close stops the coordinator: later reads fail with ErrClosed, queued
// ASYNC repairs are dropped (and counted), repairs in flight are
// cancelled, idle request goroutines are told to exit, and Close returns
// once the repair goroutines have exited — or after the read timeout at
// most: a repair whose replica's Apply ignores its context is then
// abandoned to that replica, as a read abandons a request that hangs, and
// counted in RepairsAbandoned, as is one a worker still vets (its Liveness
// view has not answered), which is never written. A repair goroutine in
// the Observer or outcome reporter, its repair counted, is not waited for:
// it may be the one calling Close, and it exits as the call returns. Reads
// in flight finish normally; their requests' goroutines exit as their
// replica calls return. Close is idempotent, and only the first call
// waits: a later one, even while the first still waits, returns at once,
// so one made from an Observer that Close itself calls does not deadlock.
// Read final metrics after the first returns.
func (c *Coordinator) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	dropped := c.repairs.close()
	c.workers.close()
	// The Observer last: one that calls runtime.Goexit (t.FailNow) ends
	// this goroutine, and stopped Close halfway, its work undone.
	c.repairs.observeDrops(dropped)
	return nil
}

// now is the coordinator's clock: time.Now, which is virtual inside a
// testing/synctest bubble.
func now() time.Time { return time.Now() }
