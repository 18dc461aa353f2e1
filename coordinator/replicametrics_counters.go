package coordinator

import "iter"

// Counters yields r's counters with stable snake_case names, in this
// order: requests, misses, repairs, timeouts, failures (the last two
// split misses, and came later); so that an exporter covers every
// counter, those added in later releases too, without naming each, as
// TableMetrics.Counters does. Each only grows, but after ForgetReplica,
// when they start from zero and Since moves on. Outstanding, Abandoned
// and Latency are gauges, not among them.
func (r ReplicaMetrics) Counters() iter.Seq2[string, int64] {
	return func(yield func(string, int64) bool) {
		_ = yield("requests", r.Requests) && yield("misses", r.Misses) && yield("repairs", r.Repairs) &&
			yield("timeouts", r.Timeouts) && yield("failures", r.Failures)
	}
}
