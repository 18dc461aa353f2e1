package coordinator

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/latency"
)

// table is the per-table state of the read path. Everything in it is safe
// for concurrent use without locks.
type table struct {
	name  string
	since time.Time // when it was made: TableMetrics.Since
	opts  atomic.Pointer[TableOptions]
	// firstRound records how long reads took to hear from blockFor
	// replicas, hedge delay included: what the threshold is computed from.
	firstRound *latency.Tracker
	threshold  *latency.Threshold
	// repairWrites records how long BLOCKING repair rounds took, from
	// their writes going out to the acknowledgement that completed them,
	// additional writes' delay included: what the additional-write
	// threshold is computed from.
	repairWrites   *latency.Tracker
	writeThreshold *latency.Threshold
	// budget caps the table's speculative actions; nil when unlimited.
	budget *retry.Budget
	// latency records whole reads, repairs included, for Metrics.
	latency *latency.Tracker
	m       counters
	// dropped is set by DropTable, under Coordinator.dropMu.
	dropped bool
	// setMu serialises SetTableOptions, so that opts and the thresholds'
	// policies come from one call. Reads never take it.
	setMu sync.Mutex
}

func (c *Coordinator) newTable(name string, o TableOptions) *table {
	t := &table{name: name, since: c.newSince(), budget: c.newBudget()}
	t.opts.Store(&o)
	t.firstRound = latency.NewTracker(c.trackerOptions()...)
	t.latency = latency.NewTracker(c.trackerOptions()...)
	t.repairWrites = latency.NewTracker(c.trackerOptions()...)
	t.threshold = latency.NewThreshold(o.SpeculativeRetry, t.firstRound, c.cfg.ReadTimeout,
		latency.WithRefresh(c.cfg.ThresholdRefresh))
	t.writeThreshold = latency.NewThreshold(o.AdditionalWritePolicy, t.repairWrites, c.cfg.ReadTimeout,
		latency.WithRefresh(c.cfg.ThresholdRefresh))
	return t
}

// newSince returns the time a table made now starts counting from (see
// newSince).
func (c *Coordinator) newSince() time.Time { return newSince(&c.lastSince) }

// newSince returns the time counters made now start from: now, or a
// nanosecond after the last such time, the UnixNano kept in last, if the
// clock has not moved past it (a coarse clock, or a testing/synctest
// bubble's, which stands still), so that a table dropped, or a replica
// forgotten, and made again at once still shows its reset.
func newSince(last *atomic.Int64) time.Time {
	t := now()
	for {
		l := last.Load()
		if d := l + 1 - t.UnixNano(); d > 0 {
			t = t.Add(time.Duration(d))
		}
		if last.CompareAndSwap(l, t.UnixNano()) {
			return t
		}
	}
}

// newBudget returns a table's hedge budget, or nil when it is unlimited.
// The configuration was validated by New.
func (c *Coordinator) newBudget() *retry.Budget {
	b := c.cfg.HedgeBudget
	if b.Unlimited {
		return nil
	}
	budget, _ := retry.NewBudget(b.retryConfig())
	return budget
}

// deposit counts a read in its table's budget and the shared one.
func (c *Coordinator) deposit(t *table, at time.Time) {
	if t.budget != nil {
		t.budget.Deposit(at)
	}
	if c.cfg.Budget != nil && !c.cfg.BudgetWithdrawOnly {
		c.cfg.Budget.Deposit(at)
	}
}

// withdraw spends one speculative action from the table's budget and the
// shared one, and reports whether both allowed it; when only one did, its
// withdrawal is refunded.
func (c *Coordinator) withdraw(t *table, at time.Time) bool {
	if t.budget != nil && !t.budget.TryWithdraw(at) {
		return false
	}
	if c.cfg.Budget != nil && !c.cfg.Budget.TryWithdraw(at) {
		if t.budget != nil {
			t.budget.Refund(at)
		}
		return false
	}
	return true
}

// refund returns a withdrawal made at at to the table's budget and the
// shared one.
func (c *Coordinator) refund(t *table, at time.Time) {
	if t.budget != nil {
		t.budget.Refund(at)
	}
	if c.cfg.Budget != nil {
		c.cfg.Budget.Refund(at)
	}
}

func (c *Coordinator) trackerOptions() []latency.Option {
	if c.cfg.LatencyWindow == 0 {
		return nil
	}
	return []latency.Option{latency.WithWindow(c.cfg.LatencyWindow)}
}

// readTable returns the state a read of table name starts with: the
// table's, or the unplaced state until the Locator places the read.
func (c *Coordinator) readTable(name string) *table {
	if t, ok := c.lookup(name); ok {
		return t
	}
	return c.unplaced
}

// table returns the state of a table, creating it with the default options
// on first use.
func (c *Coordinator) table(name string) *table {
	if t, ok := c.lookup(name); ok {
		return t
	}
	return c.addTable(name, c.cfg.DefaultTable)
}

func (c *Coordinator) lookup(name string) (*table, bool) {
	v, ok := c.tables.Load(name)
	if !ok {
		return nil, false
	}
	return v.(*table), true
}

// addTable inserts a table unless another goroutine did first. A table
// made and then not kept costs an allocation, nothing else.
func (c *Coordinator) addTable(name string, o TableOptions) *table {
	if t, ok := c.lookup(name); ok {
		return t
	}
	v, _ := c.tables.LoadOrStore(name, c.newTable(name, o))
	return v.(*table)
}
