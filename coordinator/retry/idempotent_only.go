package retry

import "github.com/readpath/readpath/consistency"

// IdempotentOnlyPolicy tries the next target once after a failure that
// leaves the statement safe to repeat, and rethrows everything else. Once
// means once after a failure that reached a target: a request not sent
// (ErrNotSent) does not count (see Policy), so past targets that could not
// be sent to it goes on to the next, as the Java driver skips them. The
// zero value is ready to use and safe for concurrent use.
type IdempotentOnlyPolicy struct{}

var _ Policy = IdempotentOnlyPolicy{}

// OnReadTimeout tries the next target once: a read changes nothing.
func (IdempotentOnlyPolicy) OnReadTimeout(s Statement, _ *consistency.ReadTimeoutError, retryCount int) Verdict {
	return nextOnce(s, retryCount)
}

// OnWriteTimeout tries the next target once if the statement is idempotent;
// a write that may have been applied must not be applied twice otherwise.
func (IdempotentOnlyPolicy) OnWriteTimeout(s Statement, _ *consistency.WriteTimeoutError, retryCount int) Verdict {
	return onlyIf(s.Idempotent == Idempotent, nextOnce(s, retryCount))
}

// OnUnavailable tries the next target once: nothing was sent.
func (IdempotentOnlyPolicy) OnUnavailable(s Statement, _ *consistency.UnavailableError, retryCount int) Verdict {
	return nextOnce(s, retryCount)
}

// OnRequestAborted tries the next target after a request not sent
// (ErrNotSent, with no lost connection, heartbeat, abort sent or error
// response joined to it), which applied nothing, however many retries were
// made: the Java driver moves past a node it cannot send to without asking
// its policy, so the one retry after a failure that reached a target goes
// on past every such node (bounded by the plan, MaxRetries and the budget).
// It rethrows other aborts.
func (IdempotentOnlyPolicy) OnRequestAborted(s Statement, err error, _ int) Verdict {
	return onlyIf(classify(err).notSent(), retryNext(s.Level))
}

// OnErrorResponse rethrows.
func (IdempotentOnlyPolicy) OnErrorResponse(Statement, error, int) Verdict { return rethrow() }

func nextOnce(s Statement, retryCount int) Verdict {
	return onlyIf(retryCount == 0, retryNext(s.Level))
}
