package retry

import (
	"iter"
	"strings"
)

// Counters yields each of m's counters with a stable snake_case name, in
// this order: executions, retries_read_timeout, retries_write_timeout,
// retries_unavailable, retries_request_aborted, retries_error_response
// (Retries by Cause), retry_successes, ignores, exhausted,
// speculative_attempts, budget_refusals, downgrades; so that an exporter
// covers every counter, those added in later releases too, without
// naming each, as coordinator.TableMetrics.Counters does. Every one only
// grows.
func (m Metrics) Counters() iter.Seq2[string, uint64] {
	return func(yield func(string, uint64) bool) {
		if !yield("executions", m.Executions) {
			return
		}
		for c, n := range m.Retries {
			if !yield(retriesIDs[c], n) {
				return
			}
		}
		for _, f := range [...]struct {
			id string
			n  uint64
		}{
			{"retry_successes", m.RetrySuccesses}, {"ignores", m.Ignores}, {"exhausted", m.Exhausted},
			{"speculative_attempts", m.SpeculativeAttempts}, {"budget_refusals", m.BudgetRefusals},
			{"downgrades", m.Downgrades},
		} {
			if !yield(f.id, f.n) {
				return
			}
		}
	}
}

// retriesIDs are the names of the retries by cause: "retries_read_timeout".
var retriesIDs = func() (ids [causeCount]string) {
	for c := range ids {
		ids[c] = "retries_" + strings.ToLower(Cause(c).String())
	}
	return ids
}()
