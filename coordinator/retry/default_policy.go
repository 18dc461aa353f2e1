package retry

import "github.com/readpath/readpath/consistency"

// DefaultPolicy retries as the DataStax Java driver 4 does by default, only
// where a retry has a good chance to succeed: once after a read timeout
// where enough replicas answered but not the data, a BATCH_LOG write
// timeout or an unavailable error; after a lost connection
// or a transient error response, on the next target each time, with no
// limit of its own (as the Java driver: the plan, Config.MaxRetries and the
// budget bound those). The zero value is ready to use; it is stateless and
// safe for concurrent use.
type DefaultPolicy struct{}

var _ Policy = DefaultPolicy{}

// OnReadTimeout retries once on the same target when enough replicas
// answered but the data response was not among them: the coordinator most
// likely asked a replica that had died unnoticed for the data, and will
// notice by the next attempt. Otherwise (too few replicas, or a digest
// mismatch being repaired) it rethrows.
func (DefaultPolicy) OnReadTimeout(s Statement, err *consistency.ReadTimeoutError, retryCount int) Verdict {
	if retryCount == 0 && err.Received >= err.BlockFor && !err.DataPresent {
		return retrySame(s.Level)
	}
	return rethrow()
}

// OnWriteTimeout retries once on the same target a BATCH_LOG write: writing
// the batch log is safe to repeat, and the coordinator replays the batch
// from it. Any other write may already be applied, so it rethrows.
func (DefaultPolicy) OnWriteTimeout(s Statement, err *consistency.WriteTimeoutError, retryCount int) Verdict {
	if retryCount == 0 && err.WriteType == consistency.WriteBatchLog {
		return retrySame(s.Level)
	}
	return rethrow()
}

// OnUnavailable tries the next target once: nothing was sent, and another
// coordinator, perhaps on the right side of a partition, may see more
// replicas alive.
func (DefaultPolicy) OnUnavailable(s Statement, _ *consistency.UnavailableError, retryCount int) Verdict {
	return onlyIf(retryCount == 0, retryNext(s.Level))
}

// OnRequestAborted tries the next target after a closed connection, a
// failed heartbeat or a request not sent (ErrNotSent), which say the target,
// not the statement, is the problem, whatever the retry count. Other aborts
// rethrow, and so does an error that joins requests (errors.Join) one of
// which it, or OnErrorResponse, would rethrow alone.
func (DefaultPolicy) OnRequestAborted(s Statement, err error, _ int) Verdict {
	return abortedVerdict(s, err)
}

// OnErrorResponse tries the next target after ErrOverloaded, ErrServerError
// or ErrTruncate, which another coordinator may not return, whatever the
// retry count. Read and write
// failures, and errors it does not know, rethrow: replicas that failed must
// be repaired before a retry can succeed; so does an error that joins one
// of them (errors.Join) to such a transient error.
func (DefaultPolicy) OnErrorResponse(s Statement, err error, _ int) Verdict {
	return errorResponseVerdict(s, err)
}

// abortedVerdict is the drivers' answer to an aborted request; of an error
// that joins requests, the strictest of their answers.
func abortedVerdict(s Statement, err error) Verdict {
	if f := classify(err); f.lost && !f.stops {
		return retryNext(s.Level)
	}
	return rethrow()
}

// errorResponseVerdict is the drivers' answer to an error response; of an
// error that joins requests, the strictest of their answers.
func errorResponseVerdict(s Statement, err error) Verdict {
	if f := classify(err); f.transient && !f.replicas && !f.stops {
		return retryNext(s.Level)
	}
	return rethrow()
}
