package coordinator

import (
	"errors"
	"sync/atomic"
)

// ErrTableDropped is the Err of an ASYNC repair dropped at its turn
// because DropTable dropped its table after the read that queued it: a
// Mutation names its table, not an incarnation of it, and a table made
// again under the name (DROP, then CREATE) must not receive the old one's
// writes, as Cassandra's replicas refuse a mutation for a dropped table's
// ID.
var ErrTableDropped = errors.New("coordinator: repair's table dropped")

// DropTable forgets table name, as after DROP TABLE: its options, latency
// trackers, thresholds, hedge budget and metrics, which Metrics no longer
// lists. What the table counted stays in Metrics().Total, so that totals
// never go backwards (a Prometheus counter must not). A read of it still
// running finishes with the state it started with, and what it counts
// after the drop is lost, but for its repairs, which Metrics().Total keeps
// as they are sent and end (an ASYNC one may end long after). ASYNC
// repairs of the table still queued are dropped, and counted in
// RepairsDropped, when their turn comes (see ErrTableDropped); one
// already being written finishes. A BLOCKING read of the table under way
// that has yet to send its repairs queues them instead, to be dropped so,
// and returns what it read; one whose repairs are out sends no additional
// writes, and queues, to be dropped so, those still running when it
// returns. A later read the Locator places, or SetTableOptions, makes the
// table afresh, with Config.DefaultTable's options. Without it, a
// coordinator keeps every table the Locator has placed a read of, which
// matters where tables come and go (one per day, say). Dropping an unknown
// table does nothing.
// DropTable waits for a Metrics snapshot being taken, and reads counting
// their repairs wait for DropTable (see Metrics).
func (c *Coordinator) DropTable(name string) {
	c.dropMu.Lock()
	defer c.dropMu.Unlock()
	if v, ok := c.tables.LoadAndDelete(name); ok {
		t := v.(*table)
		t.dropped = true
		c.dropped.add(t.m.snapshot())
	}
}

// isDropped reports whether DropTable has dropped t.
func (c *Coordinator) isDropped(t *table) bool {
	c.dropMu.RLock()
	defer c.dropMu.RUnlock()
	return t.dropped
}

// countRepairs adds n to the repair counter field picks, on t's counters
// or, once DropTable has dropped t, on the coordinator's: an ASYNC repair
// sent before the drop may end long after it, and Metrics().Total must
// still find sent = acked + failed + dropped + abandoned.
func (c *Coordinator) countRepairs(t *table, n int64, field func(*counters) *atomic.Int64) {
	c.dropMu.RLock() // DropTable's snapshot comes wholly before or after
	defer c.dropMu.RUnlock()
	m := &t.m
	if t.dropped {
		m = &c.late
	}
	field(m).Add(n)
}

// ForgetReplica forgets what the snitch knows of replica id (its latency
// score, misses and request counts), which Metrics().Replicas then no
// longer lists. Call it when a node leaves the ring for good (with
// ring.Detector.Forget); without it, every replica that was ever a live
// candidate of a read stays listed. A read still running that contacted it
// finishes normally; the next read to contact it starts it afresh, ranked
// as a replica never heard from, its row counting from zero with a later
// Since (see ReplicaMetrics.Since): the rows' Repairs summed then fall
// short of Total.RepairsSent, which keeps its repairs, by its old count
// (see ReplicaMetrics.Repairs). ASYNC repairs still queued for it are
// dropped, and counted in RepairsDropped, when their turn comes; one
// already being written when ForgetReplica is called finishes. Its
// requests that end after ForgetReplica (such a write, or a read's request
// abandoned to it) are not told to Config.Outcomes: a failure detector that
// forgot the node too would track it again, convicted, when one failed as
// the departed node's connection closed. Its count of
// abandoned requests goes too: forget a node that left, not one still
// placed whose requests hang, or Config.MaxAbandonedPerReplica's cap on
// its goroutines starts again from zero.
func (c *Coordinator) ForgetReplica(id string) { c.snitch.forget(id) }
