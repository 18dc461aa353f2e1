package retry

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Metrics is a snapshot of an Executor's counters, all since it was made. It
// is a plain value, safe for concurrent reads. In JSON Retries is an array
// in the order of the Cause constants (CauseReadTimeout first), as in Go.
//
// A snapshot taken while statements run keeps these bounds, which a
// dashboard may rely on: RetrySuccesses + Ignores <= Executions (a
// statement ends once); RetrySuccesses <= TotalRetries and Downgrades <=
// TotalRetries (only a retry runs at another level); Exhausted <=
// Executions + SpeculativeAttempts (a statement that speculates counts
// one at most per chain of attempts, the first and each speculative one
// with their retries, and one that does not, one at most). Executions
// less RetrySuccesses and Ignores is not the statements running: one that
// won at its first attempt, or failed, counts neither.
type Metrics struct {
	// Executions counts the statements Execute ran (calls rejected before
	// any attempt excluded).
	Executions uint64
	// Retries counts the retries started, indexed by the Cause of the
	// failure that led to each. A retry the context (or, in speculative
	// execution, another attempt's success) cancels during its backoff never
	// starts and is not counted.
	Retries [causeCount]uint64
	// RetrySuccesses counts statements whose winning attempt was a retry.
	RetrySuccesses uint64
	// Ignores counts statements that ended on an Ignore verdict.
	Ignores uint64
	// Exhausted counts failures after which the policy wanted another
	// attempt but none was possible: the plan ran out, MaxRetries was
	// reached, or the backoff would have passed the deadline. A statement
	// a speculative attempt still won counts too.
	Exhausted uint64
	// SpeculativeAttempts counts the speculative attempts started.
	SpeculativeAttempts uint64
	// BudgetRefusals counts retries and speculative attempts the budget
	// refused.
	BudgetRefusals uint64
	// Downgrades counts attempts started at a level other than the
	// statement's.
	Downgrades uint64
}

// TotalRetries returns the retries of every cause.
func (m Metrics) TotalRetries() uint64 {
	var n uint64
	for _, r := range m.Retries {
		n += r
	}
	return n
}

// String renders the snapshot on one line, such as "executions=3
// retries=2 (READ_TIMEOUT=1 UNAVAILABLE=1) retry_successes=1 ignores=0 ...".
func (m Metrics) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "executions=%d retries=%d (", m.Executions, m.TotalRetries())
	sep := ""
	for c, n := range m.Retries {
		if n != 0 {
			fmt.Fprintf(&b, "%s%s=%d", sep, Cause(c), n)
			sep = " "
		}
	}
	fmt.Fprintf(&b, ") retry_successes=%d ignores=%d exhausted=%d speculative=%d budget_refusals=%d downgrades=%d",
		m.RetrySuccesses, m.Ignores, m.Exhausted, m.SpeculativeAttempts, m.BudgetRefusals, m.Downgrades)
	return b.String()
}

// counters are an Executor's live metrics: one atomic add per event.
type counters struct {
	executions     atomic.Uint64
	retries        [causeCount]atomic.Uint64
	retrySuccesses atomic.Uint64
	ignores        atomic.Uint64
	exhausted      atomic.Uint64
	speculative    atomic.Uint64
	refusals       atomic.Uint64
	downgrades     atomic.Uint64
}

func (c *counters) snapshot() Metrics {
	var m Metrics
	for _, load := range snapshotLoads {
		load(c, &m)
	}
	return m
}

// snapshotLoads are snapshot's loads, in order. A statement counts its
// execution first, each attempt as it starts (a downgrade after its
// retry), and how it ended last; loaded one at a time while statements
// run, counts are loaded the other way round, what is counted last
// first, so that a snapshot keeps the bounds Metrics documents: loaded
// first, Executions was behind the endings of the statements that began
// and ended between the loads.
var snapshotLoads = [...]func(c *counters, m *Metrics){
	func(c *counters, m *Metrics) { m.RetrySuccesses = c.retrySuccesses.Load() },
	func(c *counters, m *Metrics) { m.Ignores = c.ignores.Load() },
	func(c *counters, m *Metrics) { m.Exhausted = c.exhausted.Load() },
	func(c *counters, m *Metrics) { m.Downgrades = c.downgrades.Load() },
	func(c *counters, m *Metrics) {
		for i := range c.retries {
			m.Retries[i] = c.retries[i].Load()
		}
	},
	func(c *counters, m *Metrics) { m.SpeculativeAttempts = c.speculative.Load() },
	func(c *counters, m *Metrics) { m.BudgetRefusals = c.refusals.Load() },
	func(c *counters, m *Metrics) { m.Executions = c.executions.Load() },
}
