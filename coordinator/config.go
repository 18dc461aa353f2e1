package coordinator

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/typednil"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
)

// Locator finds the replicas of a partition and the replication of its
// table. The coordinator calls it once per read; it must be safe for
// concurrent use. Replicas come in the locator's static order (ring order,
// say), at most the replication's total factor of them, and at most its
// factor there in each datacenter (a read refuses more in the local one,
// and at a level that is not DC-local in any): the natural replicas, not a
// write's pending ones. The coordinator reorders its own copy by
// proximity, and neither modifies nor keeps the slice, so a locator may
// hand out a cached one; one that does should be a PlacementLocator too,
// whose checked answers reads do not check again. A panic in it reaches
// the caller of Read, and the read counts in OtherErrors. A
// *replicatest.Cluster is a Locator.
type Locator interface {
	Locate(table, key string) ([]replica.Replica, consistency.Replication, error)
}

// LocatorFunc adapts a function to Locator. It is safe for concurrent use
// if the function is, as a Locator must be.
type LocatorFunc func(table, key string) ([]replica.Replica, consistency.Replication, error)

// Locate calls f.
func (f LocatorFunc) Locate(table, key string) ([]replica.Replica, consistency.Replication, error) {
	return f(table, key)
}

// Liveness is the coordinator's view of which replicas are up (a failure
// detector). A read contacts no replica it reports down when the read is
// planned, and hedges to none it reports down when the hedge is sent; one
// it reports down in between may still get that read's reconcile reads,
// repair writes and short-read requests (Cassandra's read plans are fixed
// when made, too). It must be safe for concurrent use and fast: it is asked
// about every replica of every read. A panic in it during a read reaches
// the caller of Read (the read counts in OtherErrors); on an ASYNC repair
// worker it is logged and the repair dropped. It should not call the
// coordinator's Close: on an ASYNC repair worker, Close waits for its
// answer (to drop the repair and tell the Observer), so a Close made from
// there waits the read timeout, then counts the repair abandoned. A
// Liveness that wraps a failure detector (to count calls, say) hides the
// detector's replica.OutcomeReporter: set Config.Outcomes to the detector.
type Liveness interface {
	IsAlive(ep replica.Endpoint) bool
}

// Config configures a Coordinator. Zero fields take the documented defaults;
// New rejects invalid values with an error wrapping ErrInvalidConfig. It is
// a plain value, safe for concurrent reads.
type Config struct {
	// Locator finds the replicas of (table, key). Required. If it is a
	// PlacementLocator, reads call LocatePlacement instead of Locate.
	Locator Locator
	// LocalDatacenter is the coordinator's own datacenter: DC-local levels
	// read only there, and its replicas are preferred. Empty for a cluster
	// without datacenters, whose tables are Simple: left empty, it makes
	// replicas without a datacenter local, and under NetworkTopology their
	// factor is 0, a bad placement. A name that no replica of a table
	// carries is not an error, since a coordinator may sit in a datacenter
	// that holds no replica of a keyspace: DC-local levels then fail as
	// unavailable, and other levels prefer no replica by locality, so
	// check its spelling against your replicas' Endpoint.Datacenter.
	LocalDatacenter string
	// Liveness reports which replicas are up. Default: all are.
	Liveness Liveness
	// ReadTimeout bounds every read, repairs included. Default 5 s. Half
	// of it is a table's speculative threshold until its percentile has
	// samples enough (see latency.Threshold): a fixed delay, as 50ms,
	// hedges sooner from a table's first read; a bound, as MIN(99p,50ms),
	// only from its first refresh that finds samples, as in Cassandra.
	ReadTimeout time.Duration
	// DefaultTable holds the options of tables not given in Tables nor set
	// with SetTableOptions. Its zero value is Cassandra's default: 99p
	// speculative retry, BLOCKING read repair, data-and-digests strategy.
	DefaultTable TableOptions
	// Tables holds initial options per table name.
	Tables map[string]TableOptions
	// HedgeBudget caps each table's speculative actions. See HedgeBudget.
	HedgeBudget HedgeBudget
	// Budget, if not nil, caps the speculative actions of every table
	// together, on top of their own budgets. Share it with a
	// retry.Executor (retry.Config.Budget) so that a client's retries and
	// the coordinator's hedges draw on one allowance: the coordinator
	// withdraws every speculative action from it and deposits every read
	// it sends requests for, unless BudgetWithdrawOnly is set.
	Budget *retry.Budget
	// BudgetWithdrawOnly stops the coordinator depositing its reads into
	// Budget. Set it when the executor that shares Budget runs its
	// attempts as reads of this coordinator: it deposits each statement
	// already, and counting each attempt's read again would double the
	// requests the budget's percentage applies to.
	BudgetWithdrawOnly bool
	// MaxInFlight is the overload switch: no hedges are sent while more than
	// this many reads are in flight on the coordinator, each key a ReadMany
	// is reading counting as one. 0 sets no limit on reads in flight, but
	// does not turn the switch off: whatever MaxInFlight, it also holds back
	// a first-round hedge, even one a failure calls for, while the table's
	// threshold is at or above ReadTimeout, or within 1/64 of it, which a
	// latency tracker cannot tell from it (a timeout storm has taught it
	// that; under a ReadTimeout past latency.MaxLatency, while it is a
	// percentile clamped there), as the later rounds hold theirs back; a
	// request that only stands in for one refused unsent still goes.
	MaxInFlight int
	// ThresholdRefresh is how often a table's speculative-retry threshold is
	// recomputed from its latency tracker. Default 1 s.
	ThresholdRefresh time.Duration
	// LatencyWindow is how far back a table's latency tracker looks, at
	// least latency.MinWindow (New refuses a shorter one). Default:
	// latency.DefaultWindow.
	LatencyWindow time.Duration
	// Snitch tunes the ordering of replicas by their recent latency.
	Snitch SnitchConfig
	// MaxAbandonedPerReplica caps the requests one replica may hold that their
	// reads gave up on (cancelled, or past their deadline) and it has not
	// returned from: a replica that ignores its context holds a goroutine for
	// each, and DigestFirst and ALL ask it every read. At the cap a request to
	// it is not sent: it fails at once with a *BacklogError, and is sent again
	// once some return; planning ranks it behind every other replica meanwhile,
	// unless Snitch.Disabled keeps the Locator's order, where a request to it
	// is refused and replaced at once by a hedge, one for each refused in a
	// round, if the table's policy hedges (under NEVER the read fails as on any
	// replica's failure); at EACH_QUORUM, which never hedges, by a request to a
	// free replica of its datacenter. When the free replicas cannot make up
	// what the round lacks, none is sent and the read fails at once. The cap is
	// checked as a request is sent: requests in flight when their reads give up
	// all count, so a replica that starts hanging under load may hold, once, up
	// to the cap plus the requests sent to it within one read timeout (a burst
	// of 3,000 reads left 3,000); none is sent to it until it is back under the
	// cap. An ASYNC repair write its worker gave up on counts too; while a
	// replica holds one, or is at the cap, a queued repair to it is dropped. A
	// healthy replica's losers count too until they return, a moment after
	// their read cancelled them: a cap of a few refuses it between back-to-back
	// reads (a cap of one, under ALWAYS at ALL), so keep it well above the
	// requests one read sends a replica. Default 1024; negative: no limit.
	MaxAbandonedPerReplica int
	// RepairQueue is the capacity of the ASYNC read-repair queue; a repair
	// arriving at a full queue is dropped and counted. Default 1024; at
	// most 1<<20 (about 300 bytes a slot). The queue is made by the first
	// ASYNC repair. A queued repair holds its mutation, what the replica
	// lacks: a repair of a large partition that differs everywhere holds
	// about the partition (4 MiB for 10,000 rows of four columns), so with
	// slow replicas the queue may hold RepairQueue of them; size it for
	// your largest repairs, or use BLOCKING for tables of large partitions.
	RepairQueue int
	// RepairWorkers is the number of goroutines applying ASYNC repairs.
	// They start with the first ASYNC repair and stop in Close. Default 4;
	// at most 1<<16.
	RepairWorkers int
	// ReuseRepairWrites lets a BLOCKING read repair build its writes (what
	// each stale replica lacks) in memory that later repairs reuse, once every
	// write it sent has returned: a mismatch of 100 rows allocated 43 KB for
	// its write, which a collector then had to find. Set it only if no
	// Replica's Apply, and no Observer's OnRepair (OnRepairContext), keeps the
	// partition it is given, or any part of it, past its return: a transport
	// that serializes the write copies what it needs, and replicatest's
	// replicas store a copy; an in-memory store that holds the partition as
	// given keeps it. A write still running when its read ends, which goes on
	// in the ASYNC queue, keeps its memory, which no repair reuses; ASYNC
	// repairs and additional writes are new memory.
	ReuseRepairWrites bool
	// Logger receives rare events: a replica's Read or Apply, or an
	// Observer's or Outcomes' method, that panicked, at Warn. Default:
	// nothing is logged. The read path never
	// logs per read: dropped repairs are counted (RepairsDropped) and
	// told to the Observer, not logged.
	Logger *slog.Logger
	// Observer, if not nil, is told about every hedge and every repair,
	// with the read's context if it is a ContextObserver.
	Observer Observer
	// Outcomes, if not nil, is told how every replica request ended, on
	// the goroutine that ran it or, for an ASYNC repair write, on its
	// worker, or when the replica returns from a write its worker gave up
	// on: a failure detector learns from it (see package ring). A request
	// that ends after ForgetReplica forgot its replica, a read's or a
	// repair write's, is told to no one (see ForgetReplica). When nil and
	// Liveness implements replica.OutcomeReporter, Liveness is told; a
	// wrapper of it is not. A reporter that panics is logged (Logger);
	// one that calls runtime.Goexit (t.FailNow in a test) ends the worker
	// it runs on, and the request still ends as if it had returned: its
	// answer reaches its read, an ASYNC write is booked.
	Outcomes replica.OutcomeReporter
}

// HedgeBudget limits each table's speculative actions (a hedge, ALWAYS's
// up-front extra request, a reconcile read or additional repair writes to
// replicas the read had not contacted) to a fraction of the table's reads
// over a sliding window, so that a cluster-wide slowdown cannot turn into
// a hedge storm, and one table's storm cannot spend another's allowance.
//
// A zero field takes its default; a negative Percent or MinPerSecond
// means none. It is a plain value, safe for concurrent reads.
type HedgeBudget struct {
	// Percent is the fraction of a table's reads, at most 1, that may take
	// a speculative action. Default 0.1; negative: none beyond the floor.
	// Use Unlimited to lift the cap.
	Percent float64
	// Window is the sliding window the fraction is measured over, from 10
	// ms to an hour. Default 10 s.
	Window time.Duration
	// MinPerSecond is a floor of speculative actions allowed per second
	// whatever the traffic, so that quiet tables can still hedge. Default
	// 1; negative: no floor. A floor below one action a window would allow
	// none, and is refused: a Window under a second needs MinPerSecond
	// raised to match (2 for half a second).
	MinPerSecond float64
	// Unlimited removes the per-table budgets: every read may speculate
	// (Config.Budget, if set, still applies).
	Unlimited bool
}

// SnitchConfig tunes the dynamic snitch, which orders a read's candidate
// replicas within each proximity group by their recent latency times one
// plus their requests outstanding (as C3 does: latency alone herds every
// read onto the replicas that look fastest), and puts
// a replica that missed since its last answer behind those that did not:
// a local one behind the remote group too, at a level that group may
// serve. It is a plain value, safe for concurrent reads.
type SnitchConfig struct {
	// Disabled keeps the locator's static order, replicas at their
	// MaxAbandonedPerReplica cap included.
	Disabled bool
	// Badness is how much slower, as a fraction, a replica must score than
	// the best before the static order is abandoned for the scores: the
	// hysteresis that keeps the order from flapping. Default 0.1, Cassandra
	// 3.x's dynamic_snitch_badness_threshold; 4.1 and 5.0 default to 1.0
	// (twice as slow), which keeps the static order far longer. Negative
	// sorts by score alone, with no margin: Cassandra's threshold of 0
	// (0 here takes the default).
	Badness float64
	// ResetInterval forgets a replica's score when it has not answered for
	// this long, so that a replica once slow is tried again: one read
	// probes it, and its answer replaces the score. Default 10 s.
	ResetInterval time.Duration
}

// ErrInvalidConfig is wrapped by every error New returns for a bad Config.
var ErrInvalidConfig = errors.New("coordinator: invalid config")

func configError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
}

// withDefaults returns cfg with zero fields set to their defaults.
func (cfg Config) withDefaults() Config {
	setDefault(&cfg.ReadTimeout, 5*time.Second)
	setDefault(&cfg.ThresholdRefresh, time.Second)
	setDefault(&cfg.RepairQueue, 1024)
	setDefault(&cfg.MaxAbandonedPerReplica, defaultMaxAbandoned)
	setDefault(&cfg.RepairWorkers, 4)
	setDefault(&cfg.HedgeBudget.Percent, 0.1)
	setDefault(&cfg.HedgeBudget.Window, 10*time.Second)
	setDefault(&cfg.HedgeBudget.MinPerSecond, 1)
	setDefault(&cfg.Snitch.Badness, 0.1)
	setDefault(&cfg.Snitch.ResetInterval, 10*time.Second)
	if o, ok := cfg.Liveness.(replica.OutcomeReporter); ok && cfg.Outcomes == nil {
		cfg.Outcomes = o
	}
	return cfg
}

func setDefault[T comparable](field *T, value T) {
	var zero T
	if *field == zero {
		*field = value
	}
}

// The largest RepairQueue and RepairWorkers: both are made at the first
// ASYNC repair, inside a read, which must not be the one to find that they
// cannot be (makechan panics on a capacity out of range).
const (
	maxRepairQueue   = 1 << 20
	maxRepairWorkers = 1 << 16
)

// validate checks a Config after defaults were applied.
func (cfg *Config) validate() error {
	switch {
	case cfg.Locator == nil:
		return configError("Locator is required")
	case cfg.ReadTimeout < 0:
		return configError("ReadTimeout %v is negative", cfg.ReadTimeout)
	case cfg.ThresholdRefresh < 0:
		return configError("ThresholdRefresh %v is negative", cfg.ThresholdRefresh)
	case cfg.LatencyWindow < 0:
		return configError("LatencyWindow %v is negative", cfg.LatencyWindow)
	case cfg.LatencyWindow > 0 && cfg.LatencyWindow < latency.MinWindow: // the tracker would take it for the default
		return configError("LatencyWindow %v is shorter than %v", cfg.LatencyWindow, latency.MinWindow)
	case cfg.MaxInFlight < 0:
		return configError("MaxInFlight %d is negative", cfg.MaxInFlight)
	case cfg.RepairQueue < 0 || cfg.RepairWorkers < 0:
		return configError("RepairQueue %d and RepairWorkers %d must not be negative", cfg.RepairQueue, cfg.RepairWorkers)
	case cfg.RepairQueue > maxRepairQueue:
		return configError("RepairQueue %d is above %d", cfg.RepairQueue, maxRepairQueue)
	case cfg.RepairWorkers > maxRepairWorkers:
		return configError("RepairWorkers %d is above %d", cfg.RepairWorkers, maxRepairWorkers)
	}
	if err := cfg.validateImplementations(); err != nil {
		return err
	}
	if err := cfg.HedgeBudget.validate(); err != nil {
		return err
	}
	if err := cfg.Snitch.validate(); err != nil {
		return err
	}
	return cfg.validateTables()
}

// validateImplementations refuses a Locator, Liveness, Observer or
// outcome reporter that is a nil pointer (or func) in its interface, a
// Locator, Liveness or outcome reporter whose Validate method (a
// ring.Locator's or ring.Detector's) fails, and a Budget not made by
// retry.NewBudget: each would crash the first read that used it. An
// Observer's Validate is not called: no ring type is one, and a test
// double's may mean something else (it saw the events it expected, say).
func (cfg *Config) validateImplementations() error {
	for _, f := range []struct {
		field string
		v     any
		ring  bool // a ring type may be it
	}{{"Locator", cfg.Locator, true}, {"Liveness", cfg.Liveness, true}, {"Observer", cfg.Observer, false}, {"Outcomes", cfg.Outcomes, true}} {
		if typednil.Holds(f.v) {
			return configError("%s is a nil %T", f.field, f.v)
		}
		if v, ok := f.v.(interface{ Validate() error }); ok && f.ring {
			if err := v.Validate(); err != nil {
				return fmt.Errorf("%w: %s: %w", ErrInvalidConfig, f.field, err)
			}
		}
	}
	if cfg.Budget != nil {
		if err := cfg.Budget.Validate(); err != nil {
			return fmt.Errorf("%w: Budget: %w", ErrInvalidConfig, err)
		}
	}
	return nil
}

func (b HedgeBudget) validate() error {
	if b.Percent > 1 || b.Percent != b.Percent {
		return configError("HedgeBudget.Percent must be a number at most 1, not %v", b.Percent)
	}
	if b.MinPerSecond != b.MinPerSecond {
		return configError("HedgeBudget.MinPerSecond must be a number, not %v", b.MinPerSecond)
	}
	if b.Window < 0 {
		return configError("HedgeBudget.Window %v is negative", b.Window)
	}
	if _, err := retry.NewBudget(b.retryConfig()); err != nil && !b.Unlimited {
		return b.budgetError(err)
	}
	return nil
}

// budgetError restates retry.NewBudget's refusal of b in b's own terms:
// retry names its BudgetConfig's fields, and advises a floor of 0 for
// none, which here means the default floor.
func (b HedgeBudget) budgetError(err error) error {
	var ce *retry.ConfigError
	if !errors.As(err, &ce) {
		return fmt.Errorf("%w: HedgeBudget: %w", ErrInvalidConfig, err)
	}
	field := "HedgeBudget." + strings.TrimPrefix(ce.Field, "BudgetConfig.")
	if field == "HedgeBudget.MinPerSecond" && b.MinPerSecond*b.Window.Seconds() < 1 {
		return configError("%s = %v allows less than one speculative action in a Window of %v, so none: raise it or the Window, or set it negative for no floor",
			field, b.MinPerSecond, b.Window)
	}
	if field == "HedgeBudget.MinPerSecond" && b.MinPerSecond*b.Window.Seconds() > 1<<30 {
		// retry's reason counts attempts, a retry's word for them.
		return configError("%s = %v allows more than 2^30 speculative actions in a Window of %v, more than the budget counts",
			field, b.MinPerSecond, b.Window)
	}
	return configError("%s = %v: %s", field, ce.Value, ce.Reason)
}

// retryConfig is the configuration of each table's budget: negative
// fields, meaning none, become zero.
func (b HedgeBudget) retryConfig() retry.BudgetConfig {
	return retry.BudgetConfig{Percent: max(b.Percent, 0), Window: b.Window, MinPerSecond: max(b.MinPerSecond, 0)}
}

func (s SnitchConfig) validate() error {
	if s.Badness != s.Badness || math.IsInf(s.Badness, 1) {
		return configError("Snitch.Badness must be a number below +Inf (negative: no margin), not %v", s.Badness)
	}
	if s.ResetInterval < 0 {
		return configError("Snitch.ResetInterval %v is negative", s.ResetInterval)
	}
	return nil
}

func (cfg *Config) validateTables() error {
	if err := cfg.DefaultTable.validate(); err != nil {
		return fmt.Errorf("%w: DefaultTable: %w", ErrInvalidConfig, err)
	}
	for name, o := range cfg.Tables {
		if name == "" {
			return configError("Tables has an empty table name")
		}
		if err := o.validate(); err != nil {
			return fmt.Errorf("%w: table %q: %w", ErrInvalidConfig, name, err)
		}
	}
	return nil
}
