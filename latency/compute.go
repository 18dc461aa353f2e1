package latency

import "time"

// Compute returns the speculation threshold the policy sets for a table whose
// recent latency is snap: a read that has not completed after d should send
// one extra request. speculate is false for NEVER.
//
//	ALWAYS            (0, true): speculate at once
//	FIXED             the delay, whatever snap holds
//	PERCENTILE        snap's percentile
//	MIN, MAX          the smaller or larger of snap's percentile and the delay
//
// An empty snap keeps previous for PERCENTILE, MIN and MAX: no reads in the
// window is no reason to move the threshold. A percentile of MaxLatency
// stands for any latency at or past it: MIN takes the delay, and MAX stays
// at MaxLatency, which a coordinator reads as at its timeout (a delay past
// MaxLatency, under a longer timeout, would otherwise hedge a timeout
// storm's reads, or a clamped MIN stop the hedges its delay asks for).
// Compute is a pure function.
func (s SpeculativeRetry) Compute(snap Snapshot, previous time.Duration) (d time.Duration, speculate bool) {
	return s.threshold(func(q float64) (time.Duration, bool) {
		return snap.Quantile(q), snap.Count > 0
	}, previous)
}

// threshold is Compute over any source of quantiles; quantile reports false
// for an empty window. It lets a Threshold read its tracker without copying
// a Snapshot.
func (s SpeculativeRetry) threshold(quantile func(q float64) (time.Duration, bool), previous time.Duration) (time.Duration, bool) {
	s = s.norm()
	switch s.kind {
	case KindNever:
		return 0, false
	case KindAlways:
		return 0, true
	case KindFixed:
		return s.fixed, true
	}
	v, ok := quantile(float64(s.pct) / (100 * pctScale))
	switch {
	case !ok:
		return previous, true
	case s.kind == KindMin && v == MaxLatency:
		return s.fixed, true
	case s.kind == KindMin:
		return min(v, s.fixed), true
	case s.kind == KindMax && v == MaxLatency:
		return v, true
	case s.kind == KindMax:
		return max(v, s.fixed), true
	}
	return v, true
}

// followsLatency reports whether the threshold the policy computes is one an
// empty window should keep, unlike ALWAYS's 0 and NEVER's nothing.
func (s SpeculativeRetry) followsLatency() bool {
	k := s.Kind()
	return k != KindNever && k != KindAlways
}

// hasPercentile reports whether the policy's threshold is, or is bounded
// by, a percentile of the table's latency: PERCENTILE, MIN and MAX.
func (s SpeculativeRetry) hasPercentile() bool {
	return s.followsLatency() && s.Kind() != KindFixed
}

// keepsThreshold reports whether an empty window should keep the threshold
// the policy computes: one that follows latency, but for a delay of 0 ms
// (FIXED, or MIN's bound), which is ALWAYS's 0 by another name and no
// latency either.
func (s SpeculativeRetry) keepsThreshold() bool {
	k := s.Kind()
	return s.followsLatency() && !(s.FixedDelay() == 0 && (k == KindFixed || k == KindMin))
}
