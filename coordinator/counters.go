package coordinator

import (
	"sync/atomic"

	"github.com/readpath/readpath/consistency"
)

// counters are a table's metrics: each event is one atomic add on the
// table's own counters; totals are summed when Metrics is called.
type counters struct {
	reads [consistency.LocalOne + 1]atomic.Int64 // by level

	dataRequests, digestRequests atomic.Int64

	speculative, hedgeWins, failedSpeculations        atomic.Int64
	noCandidate, suppressedBudget, suppressedOverload atomic.Int64

	mismatches                                                                atomic.Int64
	repairsSent, repairsAcked, repairsFailed, repairsTimedOut, repairsDropped atomic.Int64

	unavailable, timeouts, failures, cancelled, otherErrors atomic.Int64
}

func (m *counters) countRequest(k RequestKind) {
	switch k {
	case KindData:
		m.dataRequests.Add(1)
	case KindDigest:
		m.digestRequests.Add(1)
	case KindMutation:
		m.repairsSent.Add(1)
	}
}
