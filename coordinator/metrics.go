package coordinator

import (
	"slices"
	"strings"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/latency"
)

// Metrics is a snapshot of the coordinator's counters, in total and per
// table. Taking it blocks no read, but while a DropTable waits for it,
// reads counting their repairs wait too (both order against DropTable),
// for as long as the snapshot takes (milliseconds over thousands of
// tables). Total's counters only grow; a table's start again from zero
// when DropTable drops it and a later read or SetTableOptions makes it
// again, which its Since tells. A read refused before it starts, an invalid Request
// (ErrInvalidRequest) or one made after Close (ErrClosed), counts
// nowhere: its caller has the error. A DC-local level without
// Config.LocalDatacenter is found only once the read has located its
// replicas (see ErrInvalidRequest): that read counts, in OtherErrors. A
// Metrics is a plain value, a snapshot, safe for concurrent reads. In JSON
// its durations (the latencies, Threshold) are nanoseconds, Since is RFC
// 3339 and ReadsByLevel is keyed by the levels' names.
type Metrics struct {
	Total TableMetrics
	// Tables lists, sorted by name, the tables the coordinator keeps
	// state for: those of Config.Tables and SetTableOptions, and each one
	// a read of which the Locator placed, until DropTable. A read of an
	// unlisted table that the Locator could not place (it returned an
	// error, an answer refused with ErrBadPlacement, panicked or called
	// runtime.Goexit) counts in Total alone, in Reads, ReadsByLevel and its
	// error's kind (OtherErrors for a Locator's own errors, panics and
	// Goexit), so that unknown names leave no state.
	Tables []TableMetrics
	// Replicas lists every replica that was a live candidate of a read,
	// by datacenter, rack and ID, until ForgetReplica: one the reads never
	// needed shows with no requests.
	Replicas []ReplicaMetrics
	// InFlight is the reads running as the snapshot was taken (each key a
	// ReadMany is reading counts as one), which Config.MaxInFlight
	// compares, and RepairsQueued the ASYNC repairs waiting in the queue
	// for a worker (at most Config.RepairQueue): two gauges, for an
	// exporter.
	InFlight      int64
	RepairsQueued int
}

// TableMetrics are the read-path metrics of one table (or all of them).
// Taken while reads run, a snapshot never shows more of them ended than
// begun: its errors are at most its Reads, HedgeWins plus
// FailedSpeculations at most SpeculativeRetries, and the repairs
// acknowledged, failed, dropped and abandoned (or timed out) at most
// RepairsSent. It is a plain value, safe for concurrent reads.
type TableMetrics struct {
	Table string // "" for the total
	// Since is when the counters started from zero: for the total, when
	// New made the coordinator; for a table, when the coordinator made its
	// state (New, for Config.Tables; else the first read the Locator
	// placed, or SetTableOptions), and again after DropTable: later each
	// time, by a nanosecond if the clock has not moved. An exporter that
	// finds it changed knows the table's counters were reset, also when
	// the new counts overtook the old between two scrapes (as Prometheus'
	// _created and OpenTelemetry's start time tell).
	Since        time.Time
	Reads        int64
	ReadsByLevel map[consistency.Level]int64
	// Latency summarises whole successful reads, repairs included, over
	// the latency tracker's recent window.
	Latency LatencySummary
	// Threshold is the table's current speculative-retry threshold;
	// Speculating is false under NEVER. Not set in the total.
	Threshold   time.Duration
	Speculating bool

	// Replica requests made: data and digest reads, the load a read puts
	// on the cluster; a request refused unsent for its replica's backlog
	// (BacklogError) counts too, as ReplicaMetrics.Requests does not.
	DataRequests, DigestRequests int64

	// SpeculativeRetries counts the first round's speculative requests
	// (hedges and ALWAYS's up-front ones); HedgeWins those whose answer
	// was used; FailedSpeculations the others.
	SpeculativeRetries, HedgeWins, FailedSpeculations int64
	// ReconcileSpeculations counts data requests sent, after a digest
	// mismatch, to a replica the read had not contacted because the
	// reconcile reads were late; AdditionalWrites counts repair writes
	// sent to replicas whose data the read had not merged because a
	// BLOCKING repair's acknowledgements were late.
	ReconcileSpeculations, AdditionalWrites int64
	// ShortReadRequests counts the requests of short-read protection: a
	// replica asked for the rows after those its limited answer held.
	ShortReadRequests int64
	// TombstoneWarnings counts reads whose replicas met more tombstones
	// than the table's warning threshold; TombstoneFailures reads a
	// replica refused for meeting more than its failure threshold.
	TombstoneWarnings, TombstoneFailures int64
	// A speculative action was due but not taken: no live replica below
	// its backlog cap left to ask, or too few to stand in for the requests
	// of a round refused unsent (Cassandra's "insufficient replicas"; not
	// at ALL, which asks every replica by definition, though its trace
	// says NoCandidate), a budget was spent, or the overload switch held it
	// back (too many reads in flight, or a first-round threshold at the
	// read timeout, above it or within 1/64 of it: see Config.MaxInFlight;
	// there a failure's hedge is held back and counted, while a slow read
	// counts none: the switch reads the threshold as the timeout, where no
	// hedge is due). Each is
	// counted once for the cause a read's trace books
	// (HedgeTrace.Suppressed: the first, if several stopped one action).
	NoCandidate, SuppressedBudget, SuppressedOverload int64
	// PostponedSpeculations counts speculative actions put off when due
	// because a request of their round had not yet started on one of the
	// coordinator's goroutines: the delay was the coordinator's own (a
	// collector's pause, cores busy elsewhere), and another request would
	// have waited behind it. Many of them mean the coordinator is short of
	// CPU, not that replicas are slow.
	PostponedSpeculations int64

	DigestMismatches int64
	// Repairs of stale replicas (one per stale replica per read): sent,
	// and how each ended — acknowledged, failed, dropped (a full or closed
	// ASYNC queue, its table dropped (counted in Metrics().Total), or a
	// replica forgotten, reported down, at Config.MaxAbandonedPerReplica,
	// holding an ASYNC write given up on, timing out or slow (see
	// RepairTimingOutError, RepairSlowError) before its queued repair's
	// turn), or abandoned to a replica whose Apply ignored
	// its context (by its ASYNC worker, a read timeout after the write's
	// context ended, or by Close); once every repair has ended, RepairsSent is
	// the sum of those four. RepairsTimedOut counts repairs still running when
	// a BLOCKING read timed out: they go on in the ASYNC queue.
	RepairsSent, RepairsAcked, RepairsFailed, RepairsDropped, RepairsAbandoned int64
	RepairsTimedOut                                                            int64

	// Reads that ended in an error, by kind: Unavailable and Timeouts as
	// retry.Classify judges the error (joined errors too), then a
	// *consistency.ReadFailureError, then context.Canceled. OtherErrors
	// counts too a read that a hook ended without returning (a panic of the
	// Locator or the Liveness view, or runtime.Goexit in them or in the
	// Observer), whatever it was about to return: its caller saw no error
	// of a kind.
	Unavailable, Timeouts, Failures, Cancelled, OtherErrors int64
}

// LatencySummary summarises a latency distribution over the tracker's
// recent window: Count is the latencies in it, not a counter, and falls as
// the window moves on. For a latency histogram since start (Prometheus,
// OpenTelemetry), time Read in a wrapper. It is a plain value, safe for
// concurrent reads.
type LatencySummary struct {
	Count               int64
	Mean, P50, P99, Max time.Duration
	P999                time.Duration
}

// summaryQuantiles are the quantiles a LatencySummary shows.
var summaryQuantiles = []float64{0.5, 0.99, 0.999}

// summarize reads a tracker's window once, copying nothing.
func summarize(t *latency.Tracker) LatencySummary {
	var q [3]time.Duration
	s := t.Summarize(summaryQuantiles, q[:])
	return LatencySummary{Count: s.Count, Mean: s.Mean, Max: s.Max, P50: q[0], P99: q[1], P999: q[2]}
}

// Metrics returns a snapshot of the coordinator's metrics.
func (c *Coordinator) Metrics() Metrics {
	var m Metrics
	c.dropMu.RLock()
	// Sort the tables before taking their metrics: moving pointers costs
	// less than moving snapshots, and the output is made once, to size.
	var ts []*table
	c.tables.Range(func(_, v any) bool {
		ts = append(ts, v.(*table))
		return true
	})
	slices.SortFunc(ts, func(a, b *table) int { return strings.Compare(a.name, b.name) })
	if len(ts) > 0 { // nil when none, as Replicas
		m.Tables = make([]TableMetrics, len(ts))
	}
	for i, t := range ts {
		m.Tables[i] = t.metrics()
		m.Total.add(m.Tables[i])
	}
	m.Total.add(c.dropped)
	m.Total.add(c.unplaced.m.snapshot())
	m.Total.add(c.late.snapshot())
	c.dropMu.RUnlock()
	m.Total.Since = c.since
	m.Total.Latency = summarize(c.latency)
	m.Replicas = c.snitch.replicaMetrics()
	m.InFlight = max(c.inFlight.Load(), 0) // stripes summed as reads start and end
	m.RepairsQueued = c.repairs.queued()
	return m
}

// TableMetrics returns the metrics of one table without building the
// others', and whether the coordinator keeps state for it (see
// Metrics.Tables).
func (c *Coordinator) TableMetrics(table string) (TableMetrics, bool) {
	t, ok := c.lookup(table)
	if !ok {
		return TableMetrics{}, false
	}
	return t.metrics(), true
}

func (t *table) metrics() TableMetrics {
	tm := t.m.snapshot()
	tm.Table, tm.Since = t.name, t.since
	tm.Latency = summarize(t.latency)
	tm.Threshold, tm.Speculating = t.threshold.Load(now())
	return tm
}

func (m *counters) snapshot() TableMetrics {
	// What ends is loaded before what begins (errors before reads, hedges
	// won or lost before hedges sent, repairs ended before repairs sent):
	// a count is loaded one at a time while reads go on, and loaded the
	// other way, the reads that began and ended in between showed in the
	// ends alone (more timeouts than reads, a negative count of repairs in
	// flight).
	var tm TableMetrics
	tm.Unavailable, tm.Timeouts, tm.Failures = m.unavailable.Load(), m.timeouts.Load(), m.failures.Load()
	tm.Cancelled, tm.OtherErrors = m.cancelled.Load(), m.otherErrors.Load()
	tm.HedgeWins, tm.FailedSpeculations = m.hedgeWins.Load(), m.failedSpeculations.Load()
	tm.RepairsAcked, tm.RepairsFailed = m.repairsAcked.Load(), m.repairsFailed.Load()
	tm.RepairsTimedOut, tm.RepairsDropped, tm.RepairsAbandoned = m.repairsTimedOut.Load(), m.repairsDropped.Load(), m.repairsAbandoned.Load()
	tm.RepairsSent, tm.SpeculativeRetries = m.repairsSent.Load(), m.speculative.Load()
	tm.ReconcileSpeculations, tm.AdditionalWrites = m.reconcileSpeculations.Load(), m.additionalWrites.Load()
	tm.ShortReadRequests = m.shortReads.Load()
	tm.TombstoneWarnings, tm.TombstoneFailures = m.tombstoneWarnings.Load(), m.tombstoneFailures.Load()
	tm.NoCandidate, tm.SuppressedBudget, tm.SuppressedOverload = m.noCandidate.Load(), m.suppressedBudget.Load(), m.suppressedOverload.Load()
	tm.PostponedSpeculations = m.postponed.Load()
	tm.DigestMismatches = m.mismatches.Load()
	hot := m.sum()
	tm.ReadsByLevel = map[consistency.Level]int64{}
	for l, n := range hot.reads {
		if n > 0 {
			tm.ReadsByLevel[consistency.Level(l)] = n
			tm.Reads += n
		}
	}
	tm.DataRequests, tm.DigestRequests = hot.dataRequests, hot.digestRequests
	return tm
}

// add sums o's counters into t.
func (t *TableMetrics) add(o TableMetrics) {
	if t.ReadsByLevel == nil {
		t.ReadsByLevel = map[consistency.Level]int64{}
	}
	for l, n := range o.ReadsByLevel {
		t.ReadsByLevel[l] += n
	}
	mine, theirs := t.counterFields(), o.counterFields()
	for i, p := range mine {
		*p += *theirs[i]
	}
}

// numCounters is how many summable counters a TableMetrics has.
const numCounters = len(counterNames)

// counterFields lists the summable counters, in the order String prints
// them: an array, so that listing them allocates nothing.
func (t *TableMetrics) counterFields() [numCounters]*int64 {
	return [numCounters]*int64{
		&t.Reads, &t.DataRequests, &t.DigestRequests,
		&t.SpeculativeRetries, &t.HedgeWins, &t.FailedSpeculations,
		&t.ReconcileSpeculations, &t.AdditionalWrites, &t.ShortReadRequests,
		&t.TombstoneWarnings, &t.TombstoneFailures,
		&t.NoCandidate, &t.SuppressedBudget, &t.SuppressedOverload, &t.PostponedSpeculations,
		&t.DigestMismatches,
		&t.RepairsSent, &t.RepairsAcked, &t.RepairsFailed, &t.RepairsDropped, &t.RepairsAbandoned, &t.RepairsTimedOut,
		&t.Unavailable, &t.Timeouts, &t.Failures, &t.Cancelled, &t.OtherErrors,
	}
}

var counterNames = [...]string{
	"reads", "data requests", "digest requests",
	"speculative retries", "hedge wins", "failed speculations",
	"reconcile speculations", "additional writes", "short-read requests",
	"tombstone warnings", "tombstone failures",
	"no candidate", "suppressed (budget)", "suppressed (overload)", "postponed speculations",
	"digest mismatches",
	"repairs sent", "repairs acked", "repairs failed", "repairs dropped", "repairs abandoned", "repairs timed out",
	"unavailable", "timeouts", "failures", "cancelled", "other errors",
}
