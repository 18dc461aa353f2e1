package retry

import "github.com/readpath/readpath/consistency"

// FallthroughPolicy never retries: every failure is rethrown. Use it as the
// policy of statements that no failure makes safe to repeat, such as counter
// updates. The zero value is ready to use and safe for concurrent use.
type FallthroughPolicy struct{}

var _ Policy = FallthroughPolicy{}

// OnReadTimeout rethrows.
func (FallthroughPolicy) OnReadTimeout(Statement, *consistency.ReadTimeoutError, int) Verdict {
	return rethrow()
}

// OnWriteTimeout rethrows.
func (FallthroughPolicy) OnWriteTimeout(Statement, *consistency.WriteTimeoutError, int) Verdict {
	return rethrow()
}

// OnUnavailable rethrows.
func (FallthroughPolicy) OnUnavailable(Statement, *consistency.UnavailableError, int) Verdict {
	return rethrow()
}

// OnRequestAborted rethrows.
func (FallthroughPolicy) OnRequestAborted(Statement, error, int) Verdict { return rethrow() }

// OnErrorResponse rethrows.
func (FallthroughPolicy) OnErrorResponse(Statement, error, int) Verdict { return rethrow() }
