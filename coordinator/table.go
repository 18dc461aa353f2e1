package coordinator

import (
	"sync/atomic"

	"github.com/readpath/readpath/latency"
)

// table is the per-table state of the read path. Everything in it is safe
// for concurrent use without locks.
type table struct {
	name string
	opts atomic.Pointer[TableOptions]
	// firstRound records how long reads took to hear from blockFor
	// replicas, hedge delay included: what the threshold is computed from.
	firstRound *latency.Tracker
	threshold  *latency.Threshold
	// latency records whole reads, repairs included, for Metrics.
	latency *latency.Tracker
	m       counters
}

func (c *Coordinator) newTable(name string, o TableOptions) *table {
	t := &table{name: name}
	t.opts.Store(&o)
	t.firstRound = latency.NewTracker(c.trackerOptions()...)
	t.latency = latency.NewTracker(c.trackerOptions()...)
	t.threshold = latency.NewThreshold(o.SpeculativeRetry, t.firstRound, c.cfg.ReadTimeout,
		latency.WithRefresh(c.cfg.ThresholdRefresh))
	return t
}

func (c *Coordinator) trackerOptions() []latency.Option {
	if c.cfg.LatencyWindow == 0 {
		return nil
	}
	return []latency.Option{latency.WithWindow(c.cfg.LatencyWindow)}
}

// table returns the state of a table, creating it with the default options
// on first use. Lock-free once the table exists: the map is copied on write.
func (c *Coordinator) table(name string) *table {
	if t, ok := (*c.tables.Load())[name]; ok {
		return t
	}
	return c.addTable(name, c.cfg.DefaultTable)
}

// addTable inserts a table unless another goroutine did first.
func (c *Coordinator) addTable(name string, o TableOptions) *table {
	c.tablesMu.Lock()
	defer c.tablesMu.Unlock()
	old := *c.tables.Load()
	if t, ok := old[name]; ok {
		return t
	}
	next := make(map[string]*table, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	t := c.newTable(name, o)
	next[name] = t
	c.tables.Store(&next)
	return t
}
