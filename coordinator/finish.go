package coordinator

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
)

// endFirstRound books the first round: which answers were used, whether
// the hedge won, and how long the round took, up to the arrival of the
// answer that completed it. That duration, not the replicas' own times,
// feeds the threshold: a hedged read is recorded at threshold plus the
// hedge's latency, above the threshold, so sustained hedging cannot drag
// the threshold down. A round its caller cancelled, or whose caller's
// deadline came before the read timeout and ended it, is recorded only if
// it had run into the table's tail (see inTheTail).
func (r *read) endFirstRound(err error) {
	if err == nil {
		for _, a := range r.answers {
			r.trace.Requests[a.idx].Used = true
		}
	}
	if h := &r.trace.Hedge; h.Fired {
		h.Won = err == nil && r.trace.Requests[r.hedgeIdx].Used
		if err != nil || !r.speculativeDataPending() {
			r.bookHedges() // else once the reconcile round may have adopted it: see finish
		}
	}
	switch {
	case err == nil:
		r.t.firstRound.RecordAt(r.lastAt.Sub(r.start), r.lastAt)
	case r.timedOutToRecord(err):
		r.t.firstRound.Record(r.since())
	case r.cancelledInTheTail(err):
		r.t.firstRound.Record(r.since())
	}
}

// speculativeDataPending reports whether a speculative data request of
// the first round is still pending: a reconcile round may take it over
// (see askData) and use its answer.
func (r *read) speculativeDataPending() bool {
	for _, rq := range r.trace.Requests {
		if rq.Phase == PhaseSpeculative && rq.Kind == KindData && rq.Outcome == Pending {
			return true
		}
	}
	return false
}

// bookHedges counts the first round's speculative requests, if it sent
// any, once: won if their answer was used, else failed. It may have sent
// several, each counted in SpeculativeRetries: a stand-in for each
// request refused unsent (in each datacenter short at EACH_QUORUM),
// beside the hedge or ALWAYS's request.
func (r *read) bookHedges() {
	if !r.trace.Hedge.Fired || r.hedgeBooked {
		return
	}
	r.hedgeBooked = true
	var sent, won int64
	for i := range r.trace.Requests {
		if rq := &r.trace.Requests[i]; rq.Phase == PhaseSpeculative {
			sent++
			if rq.Used {
				won++
			}
		}
	}
	if won > 0 {
		r.t.m.hedgeWins.Add(won)
	}
	if sent > won {
		r.t.m.failedSpeculations.Add(sent - won)
	}
}

// cancelledInTheTail reports whether err is the caller's cancellation of a
// round that had run into the table's tail (see inTheTail). Its time is
// a lower bound of its latency, in the tail: left out, the slow reads that
// callers give up on, and those a filled ReadMany page cancels, would drag
// the threshold down, and hedging up. A round cancelled sooner tells
// nothing of the tail, and is left out, as a quick cancellation would
// otherwise pull the threshold down.
func (r *read) cancelledInTheTail(err error) bool {
	return err != nil && r.parent.Err() == context.Canceled && errors.Is(err, context.Canceled) && r.inTheTail()
}

// timedOutToRecord reports whether err is a timeout the first round's
// tracker should record: at the read timeout, or at a deadline of the
// caller's, sooner, once the round had run into the table's tail. A
// caller's deadline that ended the round before the threshold is a
// latency no replica took, and tells nothing of the tail, as a quick
// cancellation does not: recorded, callers that give up after 2 ms pulled
// a 75p threshold down to 2 ms where every replica answered in 10, and
// every read of the others hedged.
func (r *read) timedOutToRecord(err error) bool {
	return isTimeout(err) && (!r.callers || r.inTheTail())
}

// inTheTail reports whether the read has run into its table's tail: at
// least the threshold under a policy with a percentile, else the one the
// table's last percentile (99p if none) would have set
// (latency.Threshold.Tail). Which reads are recorded does not depend on
// the policy: under ALWAYS or a 0 ms delay, whose threshold is 0, or
// NEVER, none was, and a percentile set after them learnt from a window
// without the slow reads callers had cut short.
func (r *read) inTheTail() bool {
	tail := r.t.threshold.Tail()
	return tail > 0 && r.since() >= tail
}

func isTimeout(err error) bool { return own[*consistency.ReadTimeoutError](err) }

// own reports whether err's chain of single Unwraps holds a T: whether the
// read itself ended so, not one of the replicas' errors a
// *consistency.ReadFailureError lists, into which errors.As goes (a
// replica that is a coordinator may time out). retry.Classify does not go
// into them either.
func own[T error](err error) bool {
	for err != nil {
		if _, ok := err.(T); ok {
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// finish books the whole read's outcome. Its end is one reading of the
// monotonic clock since the start (as a call's answer time is: time.Now
// reads the wall clock too).
func (r *read) finish(err error) {
	r.bookHedges()
	r.finished = true
	d := r.since()
	end := r.start.Add(d)
	r.trace.Start = r.start
	r.trace.Duration = d
	r.bookLateAnswers(end)
	r.bookTombstones()
	if err == nil {
		// Nothing queries these trackers on the read path: with the read's
		// end they notice a new sub-window on every sample (see RecordAt).
		r.t.latency.RecordAt(r.trace.Duration, end)
		r.c.latency.RecordAt(r.trace.Duration, end)
		return
	}
	r.t.m.countError(err)
}

// countError counts a failed read by the kind of its error: a timeout or
// an unavailable error as retry.Classify finds them, through joined errors
// too (a Locator's, a cancellation's cause), so that the metrics count the
// error as a retry policy judges it; of the others, a read failure, then a
// cancellation.
func (m *counters) countError(err error) {
	switch cause := retry.Classify(err); {
	case cause == retry.CauseUnavailable:
		m.unavailable.Add(1)
	case cause == retry.CauseReadTimeout:
		m.timeouts.Add(1)
	case own[*consistency.ReadFailureError](err):
		m.failures.Add(1)
	case errors.Is(err, context.Canceled):
		m.cancelled.Add(1)
	default:
		m.otherErrors.Add(1)
	}
}

// bookTombstones flags and counts a read that met many tombstones.
func (r *read) bookTombstones() {
	r.trace.Tombstones = max(r.tombstones, r.refusedAt)
	if warn := threshold(r.opts.TombstoneWarnThreshold, defaultTombstoneWarn); warn > 0 && r.tombstones > warn {
		r.trace.TombstoneWarning = true
		r.t.m.tombstoneWarnings.Add(1)
	}
	if r.overwhelmed {
		r.t.m.tombstoneFailures.Add(1)
	}
}

// result is what Read returns: the data, cut at the query's limit, and
// the paging state of a result the limit cut. The data answer of a read
// without a mismatch is cut too: a replica, or a transport that lost the
// limit, may have answered past it, and the page would then hold every
// row, its state resume after the last (as Cassandra's pager trims a page
// to its size). Its rows and range tombstones are capped at their
// length: a replica's answer may be a window on its stored partition, and
// a caller appending to the result must not write over what follows it.
func (r *read) result(p replica.Partition, err error) (Result, error) {
	if err != nil { // a merge whose repair or round failed is no result at the level
		return Result{Trace: r.trace.detach()}, err
	}
	p, reached := p.Limit(r.q, r.nowInSec)
	p.Rows, p.RangeTombstones = slices.Clip(p.Rows), slices.Clip(p.RangeTombstones)
	res := Result{Partition: p, NowInSec: r.nowInSec, Trace: r.trace.detach(), query: r.q}
	if r.blocks != nil {
		res.blocks, res.gen, r.blocks = r.blocks, r.blocks.gen.Load(), nil
	}
	res.PagingState = r.pagingState(p, reached)
	return res, nil
}

// pagingState is the state that resumes after p's last row, when the
// limit cut p (reached) and the rows the read's own state left it are not
// all returned; nil otherwise. A partition of a table without clustering
// columns holds one row, so nothing follows its last: Cassandra's pager
// sees that from the row's empty clustering (AbstractQueryPager).
func (r *read) pagingState(p replica.Partition, reached bool) []byte {
	last, ok := p.LastClustering(r.q)
	if !reached || !ok || r.opts.NoClusteringColumns {
		return nil
	}
	left := 0
	if r.remaining > 0 {
		if left = r.remaining - r.q.Limit; left <= 0 { // a page its limit cut returned that many
			return nil
		}
	}
	return r.req.stateAfter(last, left)
}

// bookLateAnswers books in the trace the read requests that answered by
// end, the read's, though no round took their answers: those a round had
// done without, and those of an earlier round, whose channel nobody reads
// once the next round starts (a first-round hedge answering during the
// repair round). The trace's Pending is "no answer when the read ended".
// A request the read's end cut off stays pending, as accept leaves it; so
// does a repair write, which settleRepairs has queued as ASYNC by then.
func (r *read) bookLateAnswers(end time.Time) {
	for i, k := range r.calls {
		if r.trace.Requests[i].Outcome != Pending || k.mutation {
			continue
		}
		ch := k.ch
		if k.state.Load()&callMoved != 0 {
			ch = k.moved
		}
		for {
			select {
			case idx := <-ch:
				if idx != tick {
					r.bookLate(idx, end)
				}
				continue
			default:
			}
			break
		}
	}
}

// bookLate books request idx's answer, taken from its channel after the
// read, if it arrived by end.
func (r *read) bookLate(idx int, end time.Time) {
	k, rt := r.calls[idx], &r.trace.Requests[idx]
	switch {
	case k.mutation || k.at.After(end):
		return
	case k.err != nil && isContextErr(k.err) && r.ctx.Err() != nil && r.cutOff(k.at):
		return
	}
	rt.Done = k.at.Sub(r.start)
	if k.err != nil {
		rt.Outcome, rt.Err = Failed, k.err
		return
	}
	rt.Outcome = Answered
}
