package retry

import "github.com/readpath/readpath/consistency"

// DowngradingPolicy retries once after a timeout or an unavailable error
// where a retry can succeed (see its methods: it rethrows, among others, a
// timeout with enough answers and the data, a serial read and a counter or
// CAS write), and where too few replicas answered or were alive, retries at
// a lower level that the replicas seen can meet, as the Java driver's
// ConsistencyDowngradingRetryPolicy does: THREE, TWO or ONE by their count.
// At EACH_QUORUM the count is that of the one datacenter that fell short, as
// Cassandra reports it (and consistency.AssureSufficientLive), so it is a
// lower bound and its level can be met; a count of 0 there still retries at
// ONE, since the other datacenters' replicas may be up. Over SimpleStrategy,
// where EACH_QUORUM is QUORUM and its error names no datacenter, a count of
// 0 is every replica's and that retry fails Unavailable too, sending
// nothing: the Java driver's vectors keep it, as an error from the wire
// names no datacenter either.
//
// Downgrading silently weakens the guarantee the application asked for: a
// QUORUM read served at ONE may miss a write QUORUM acknowledged. Use it only
// where a possibly stale answer beats no answer, and watch
// Config.OnDowngrade. The zero value is ready to use and safe for concurrent
// use.
type DowngradingPolicy struct{}

var _ Policy = DowngradingPolicy{}

// OnReadTimeout acts on the first failure only. It rethrows a serial read
// (it is how an application learns what a timed-out CAS did; a weaker read
// cannot tell it); when too few replicas answered, it downgrades to what
// answered; when enough answered but no data, it retries at the same level;
// when enough answered with data (the Java driver's sign of a digest
// mismatch, which must be repaired first), it rethrows. The coordinator's
// own timeout after a mismatch counts fewer than BlockFor (as Cassandra's
// does), so it downgrades.
func (DowngradingPolicy) OnReadTimeout(s Statement, err *consistency.ReadTimeoutError, retryCount int) Verdict {
	switch {
	case retryCount != 0, err.Level.IsSerial():
		return rethrow()
	case err.Received < err.BlockFor:
		return downgrade(err.Received, err.Level)
	case !err.DataPresent:
		return retrySame(s.Level)
	}
	return rethrow()
}

// OnWriteTimeout acts on the first failure only. It ignores a SIMPLE or
// BATCH write that a replica acknowledged (it is durable there and will
// spread); retries an UNLOGGED_BATCH at the level the acknowledgements can
// meet, to get every part of it written somewhere; retries a BATCH_LOG
// write as is; and rethrows COUNTER, CAS, VIEW and CDC writes, and
// unacknowledged writes.
func (DowngradingPolicy) OnWriteTimeout(s Statement, err *consistency.WriteTimeoutError, retryCount int) Verdict {
	return onlyIf(retryCount == 0, writeTimeoutVerdict(s, err, downgrade(err.Received, err.Level)))
}

// writeTimeoutVerdict is the downgrading policies' answer to a write
// timeout, given their answer for an UNLOGGED_BATCH.
func writeTimeoutVerdict(s Statement, err *consistency.WriteTimeoutError, unloggedBatch Verdict) Verdict {
	switch err.WriteType {
	case consistency.WriteSimple, consistency.WriteBatch:
		return onlyIf(err.Received > 0, ignoreAt(s.Level))
	case consistency.WriteUnloggedBatch:
		return unloggedBatch
	case consistency.WriteBatchLog:
		return retrySame(s.Level)
	}
	return rethrow()
}

// OnUnavailable acts on the first failure only: at a serial level (the
// Paxos phase of a lightweight transaction) it tries the next target, which
// may not be cut off from the replicas; otherwise it downgrades to what is
// alive.
func (DowngradingPolicy) OnUnavailable(s Statement, err *consistency.UnavailableError, retryCount int) Verdict {
	switch {
	case retryCount != 0:
		return rethrow()
	case err.Level.IsSerial():
		return retryNext(s.Level)
	}
	return downgrade(err.Alive, err.Level)
}

// OnRequestAborted answers as DefaultPolicy does, whatever the retry count,
// as the Java driver: each unreachable target moves the statement on to the
// next, within the plan, MaxRetries and the budget.
func (DowngradingPolicy) OnRequestAborted(s Statement, err error, _ int) Verdict {
	return abortedVerdict(s, err)
}

// OnErrorResponse answers as DefaultPolicy does, whatever the retry count.
func (DowngradingPolicy) OnErrorResponse(s Statement, err error, _ int) Verdict {
	return errorResponseVerdict(s, err)
}

// downgrade retries at the strongest of THREE, TWO and ONE that count
// replicas can meet, and rethrows when none answered, as the Java driver's
// maybeDowngrade. At EACH_QUORUM an unavailable error's count is the one
// datacenter's that fell short, and a timeout's the answers of every
// datacenter up to its quorum: either way at least that many replicas are
// up, so the level still fits, and 0 goes to ONE, since it says nothing of
// the others (JAVA-1005).
func downgrade(count int, current consistency.Level) Verdict {
	if current == consistency.EachQuorum {
		count = max(count, 1)
	}
	if l, ok := countLevel(count); ok {
		return retrySame(l)
	}
	return rethrow()
}

// countLevel is the strongest of THREE, TWO and ONE that count replicas
// meet; false for none.
func countLevel(count int) (consistency.Level, bool) {
	switch {
	case count >= 3:
		return consistency.Three, true
	case count == 2:
		return consistency.Two, true
	case count == 1:
		return consistency.One, true
	}
	return consistency.Any, false
}
