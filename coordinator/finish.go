package coordinator

import (
	"context"
	"errors"

	"github.com/readpath/readpath/consistency"
)

// endFirstRound books the first round: which answers were used, whether
// the hedge won, and how long the round took, up to the arrival of the
// answer that completed it. That duration, not the replicas' own times,
// feeds the threshold: a hedged read is recorded at threshold plus the
// hedge's latency, above the threshold, so sustained hedging cannot drag
// the threshold down.
func (r *read) endFirstRound(err error) {
	if err == nil {
		for _, a := range r.answers {
			r.trace.Requests[a.idx].Used = true
		}
	}
	if h := &r.trace.Hedge; h.Fired {
		h.Won = err == nil && r.trace.Requests[r.hedgeIdx].Used
		if h.Won {
			r.t.m.hedgeWins.Add(1)
		} else {
			r.t.m.failedSpeculations.Add(1)
		}
	}
	switch {
	case err == nil:
		r.t.firstRound.Record(r.lastAt.Sub(r.start))
	case isTimeout(err):
		r.t.firstRound.Record(r.since())
	}
}

func isTimeout(err error) bool {
	var timeout *consistency.ReadTimeoutError
	return errors.As(err, &timeout)
}

// finish books the whole read's outcome.
func (r *read) finish(err error) {
	r.trace.Start = r.start
	r.trace.Duration = r.since()
	if err == nil {
		r.t.latency.Record(r.trace.Duration)
		r.c.latency.Record(r.trace.Duration)
		return
	}
	r.t.m.countError(err)
}

// countError counts a failed read by the kind of its error.
func (m *counters) countError(err error) {
	var (
		unavailable *consistency.UnavailableError
		failure     *consistency.ReadFailureError
	)
	switch {
	case errors.As(err, &unavailable):
		m.unavailable.Add(1)
	case isTimeout(err):
		m.timeouts.Add(1)
	case errors.As(err, &failure):
		m.failures.Add(1)
	case errors.Is(err, context.Canceled):
		m.cancelled.Add(1)
	default:
		m.otherErrors.Add(1)
	}
}
