package retry

import "time"

// withdraw spends one extra attempt from the budget, if there is one, and
// returns when, for a refund: the zero time when there is no budget.
func (e *Executor) withdraw() (time.Time, bool) {
	if e.cfg.Budget == nil {
		return time.Time{}, true
	}
	now := time.Now()
	if e.cfg.Budget.TryWithdraw(now) {
		return now, true
	}
	e.m.refusals.Add(1)
	return time.Time{}, false
}

// started counts attempt a in the metrics as it starts, after its backoff:
// a retry the context cancels during its backoff never ran, and is not
// counted, nor is a speculative attempt whose goroutine found the statement
// won. It touches only atomics, so a speculative attempt's goroutine may
// call it.
func (e *Executor) started(a attemptSpec) {
	switch {
	case a.retry:
		e.m.retries[a.cause].Add(1)
	case a.speculative:
		e.m.speculative.Add(1)
	}
	if a.downgraded {
		e.m.downgrades.Add(1)
	}
}

// unstarted gives back the budget token of attempt a, which the context
// ended before it started.
func (e *Executor) unstarted(a attemptSpec) {
	if !a.token.IsZero() {
		e.cfg.Budget.Refund(a.token)
	}
}
