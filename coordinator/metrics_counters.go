package coordinator

import (
	"iter"
	"strings"
)

// Counters yields each of t's counters with a stable snake_case name, the
// rows String prints, in its order: reads, data_requests, digest_requests,
// speculative_retries, hedge_wins, failed_speculations,
// reconcile_speculations, additional_writes, short_read_requests,
// tombstone_warnings, tombstone_failures, no_candidate, suppressed_budget,
// suppressed_overload, postponed_speculations, digest_mismatches,
// repairs_sent, repairs_acked, repairs_failed, repairs_dropped,
// repairs_abandoned, repairs_timed_out, unavailable, timeouts, failures,
// cancelled, other_errors; so that an exporter covers every counter, those
// added in later releases too, without naming each. Every one only grows,
// but for a table dropped and made again, whose counters start from zero
// and whose Since moves on (see Metrics). ReadsByLevel, the latency
// summary and the threshold are not among them.
func (t TableMetrics) Counters() iter.Seq2[string, int64] {
	return func(yield func(string, int64) bool) {
		for i, p := range t.counterFields() {
			if !yield(counterIDs[i], *p) {
				return
			}
		}
	}
}

// counterIDs are the counters' names as Counters gives them.
var counterIDs = func() (ids [numCounters]string) {
	for i, name := range counterNames {
		ids[i] = counterID(name)
	}
	return ids
}()

// counterID turns a counter's display name into its identifier:
// "suppressed (budget)" into "suppressed_budget".
func counterID(name string) string {
	name = strings.NewReplacer("(", "", ")", "").Replace(name)
	return strings.NewReplacer(" ", "_", "-", "_").Replace(name)
}
