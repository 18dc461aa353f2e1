package coordinator

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/readpath/readpath/replica"
)

// ReplicaMetrics is the coordinator's view of one replica that was a live
// candidate of its reads (sent requests or not): where it is, how it has
// answered, and how the snitch ranks it. Requests, Misses (Timeouts,
// Failures) and Repairs are counters, which only grow until ForgetReplica
// (see Since); Outstanding, Abandoned and Latency are gauges. Taken while
// requests end, a snapshot never shows more Misses than requests ended
// (Requests - Outstanding), nor more Timeouts and Failures than Misses.
// It is a plain value, safe for concurrent reads.
type ReplicaMetrics struct {
	Endpoint replica.Endpoint // ID, datacenter and rack
	// Since is when its counters (Requests, Misses, Repairs…) started from
	// zero: when it was first a candidate, and again after ForgetReplica
	// when a read makes it a candidate again, later each time (see
	// TableMetrics.Since), so that an exporter that finds it changed
	// knows they were reset.
	Since time.Time
	// Requests counts the read requests sent to it, as they are sent;
	// Misses those that ended without an answer: failed, timed out, or
	// cancelled by a read that had waited more than twice its usual
	// latency. A refusal for tombstones is not one: the data, not the
	// replica, is at fault. A request that outlived its read is judged
	// only when it ends (in Abandoned until then), as a miss or, if the
	// replica answered it at last, as answered, its whole time joining
	// Latency.
	Requests, Misses int64
	// Timeouts and Failures split Misses: the requests that ran into the
	// read's timeout (or failed once it had passed), and those
	// that ended in the replica's error sooner; the rest of Misses were
	// cancelled overdue. A replica that is slow shows Timeouts, one that
	// is broken or refuses (overloaded, say) Failures.
	Timeouts, Failures int64
	// Outstanding is the read requests sent and not yet ended.
	Outstanding int64
	// Abandoned is the requests (reads and repair writes) whose reads, or
	// ASYNC repair workers, have given up on them and the replica has not
	// yet returned from: a replica that ignores its context gathers them,
	// and at Config.MaxAbandonedPerReplica is sent nothing more
	// (BacklogError).
	Abandoned int64
	// Repairs counts the read-repair writes sent to it as a stale
	// replica, one per read that found it stale. Summed over
	// Metrics.Replicas, taken while no read sends repairs, it is
	// Total.RepairsSent (dropped tables' included) less what the rows
	// ForgetReplica dropped had counted, a read's that had contacted the
	// replica before it was forgotten included: Total only grows. Taken
	// while reads send repairs, the sum may be ahead of Total, a replica's
	// count coming before its table's. A replica that lost data shows
	// here, and where its repairs come from in their tables' counts.
	Repairs int64
	// Latency is the snitch's latency score: a moving average of its
	// response times, in which a request that timed out counts as
	// answered when it did, and a cancelled one too when it ran longer
	// than the score; 0 before the first of these, so a replica that has
	// only timed out shows how long it was waited for, not 0.
	Latency time.Duration
}

// replicaMetrics lists the snitch's replicas by datacenter, rack and ID.
func (s *snitch) replicaMetrics() []ReplicaMetrics {
	var rs []ReplicaMetrics
	s.scores.Range(func(_, v any) bool {
		sc := v.(*score)
		// Timeouts and failures, then misses, then ends, then sends: a
		// request is counted sent before it ends, a miss after its end,
		// and a timeout or failure after its miss (score.countMiss), so
		// that, loaded in this order, no more requests show ended than
		// sent, nor missed than ended, nor timed out or failed than
		// missed, however many end meanwhile.
		timeouts, failures := sc.timeoutAll.Load(), sc.failAll.Load()
		misses, ended := sc.missAll.Load(), sc.endedAll.Load()
		sent := sc.sentAll.Load()
		rs = append(rs, ReplicaMetrics{
			Endpoint: *sc.ep.Load(), Since: sc.since, Requests: sent, Misses: misses, Timeouts: timeouts, Failures: failures, Outstanding: sent - ended,
			Abandoned: max(0, sc.abandoned.Load()), Repairs: sc.repairs.Load(), Latency: time.Duration(math.Float64frombits(sc.bits.Load())),
		})
		return true
	})
	slices.SortFunc(rs, func(a, b ReplicaMetrics) int {
		return cmp.Or(cmp.Compare(a.Endpoint.Datacenter, b.Endpoint.Datacenter),
			cmp.Compare(a.Endpoint.Rack, b.Endpoint.Rack), cmp.Compare(a.Endpoint.ID, b.Endpoint.ID))
	})
	return rs
}

// replicasString renders the replicas as a table.
func replicasString(rs []ReplicaMetrics) string {
	rows := [][]string{{"replica", "datacenter", "rack", "requests", "misses", "timeouts", "failures", "outstanding", "abandoned", "repairs", "latency"}}
	for _, r := range rs {
		rows = append(rows, []string{r.Endpoint.ID, r.Endpoint.Datacenter, r.Endpoint.Rack,
			fmt.Sprint(r.Requests), fmt.Sprint(r.Misses), fmt.Sprint(r.Timeouts), fmt.Sprint(r.Failures), fmt.Sprint(r.Outstanding), fmt.Sprint(r.Abandoned), fmt.Sprint(r.Repairs),
			r.Latency.Round(time.Microsecond).String()})
	}
	return renderTable(rows)
}
