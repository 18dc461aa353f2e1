package coordinator

import (
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/stripe"
)

// counters are a table's metrics: each event is one atomic add on the
// table's own counters; totals are summed when Metrics is called. The
// counters every read adds to are striped (see package stripe), so that
// reads on different cores do not contend for them.
type counters struct {
	hot [stripe.N]hotCounters

	speculative, hedgeWins, failedSpeculations        atomic.Int64
	reconcileSpeculations, additionalWrites           atomic.Int64
	shortReads, tombstoneWarnings, tombstoneFailures  atomic.Int64
	noCandidate, suppressedBudget, suppressedOverload atomic.Int64
	postponed                                         atomic.Int64

	mismatches                                                                atomic.Int64
	repairsSent, repairsAcked, repairsFailed, repairsTimedOut, repairsDropped atomic.Int64
	repairsAbandoned                                                          atomic.Int64

	unavailable, timeouts, failures, cancelled, otherErrors atomic.Int64
}

// hotCounters are one stripe of the counters every read adds to.
type hotCounters struct {
	reads                        [levels]atomic.Int64 // by level
	dataRequests, digestRequests atomic.Int64
	// reader is the stack (stripe.Stack) of the goroutine that read on
	// the stripe last, and handovers counts the reads that found another
	// one's there (see noteReader).
	reader    atomic.Uintptr
	handovers atomic.Uint32
	_         [hotPad]byte
}

const (
	levels = consistency.LocalOne + 1
	hotPad = (stripe.CacheLine - ((levels+3)*8+4)%stripe.CacheLine) % stripe.CacheLine
)

// dealAfter is how many reads by another goroutine than the last one a
// stripe of a table's hot counters takes before the coordinator deals the
// reading goroutines anew (see noteReader): two goroutines stuck on one
// stripe find each other's stack there on every read, and part within a
// few milliseconds.
const dealAfter = 1024

// dealGap is the least time between two deals. Where many more goroutines
// read than there are cores, they take turns on every stripe however they
// are dealt, and a deal every dealAfter turns only moved them about (a
// read of 64 goroutines on two cores took 1.1 to 1.6 times as long): a
// deal a second costs nothing, and two readers stuck together part at the
// first.
const dealGap = time.Second

// noteReader records that the goroutine whose stack is me reads on the
// stripe h, in a read that started at start. Goroutines that take turns
// on a stripe run on several cores, or soon will, and move its cache
// lines, and its worker stack's lock, between them: every dealAfter
// turns, at most once a dealGap, the coordinator deals the readers anew,
// parting me from the last one. One load a read while a goroutine keeps
// its stripe to itself.
func (c *Coordinator) noteReader(h *hotCounters, me uintptr, start time.Time) {
	last := h.reader.Load()
	if last == me {
		return
	}
	h.reader.Store(me)
	if last == 0 || h.handovers.Add(1)%dealAfter != 0 {
		return
	}
	now := snitchClock.Nanos(start)
	if next := c.nextDeal.Load(); now >= next && c.nextDeal.CompareAndSwap(next, now+int64(dealGap)) {
		c.dealer.Separate(me, last)
	}
}

// countRequest counts a read request of kind k, on the read's stripe h.
// Repair writes are counted by what they are for (see readrepair.go).
func (m *counters) countRequest(h *hotCounters, k RequestKind) {
	switch k {
	case KindData:
		h.dataRequests.Add(1)
	case KindDigest:
		h.digestRequests.Add(1)
	}
}

// hotTotals are the hot counters summed over the stripes.
type hotTotals struct {
	reads                        [levels]int64
	dataRequests, digestRequests int64
}

func (m *counters) sum() (s hotTotals) {
	for i := range m.hot {
		h := &m.hot[i]
		for l := range h.reads {
			s.reads[l] += h.reads[l].Load()
		}
		s.dataRequests += h.dataRequests.Load()
		s.digestRequests += h.digestRequests.Load()
	}
	return s
}
