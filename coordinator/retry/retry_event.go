package retry

import (
	"time"

	"github.com/readpath/readpath/consistency"
)

// RetryEvent describes a retry about to run, for Config.OnRetry. It is a
// plain value, safe for concurrent reads.
type RetryEvent struct {
	// Statement is the statement as executed: the Level it asked for, and
	// its idempotence resolved to Idempotent or NotIdempotent.
	Statement Statement
	// Retry is the statement's retry count, 1 for its first retry.
	Retry int
	// Err is the error of the failed attempt that led to the retry, and
	// Cause its classification.
	Err   error
	Cause Cause
	// Verdict is the policy's verdict on Err: RetrySame or RetryNext.
	Verdict Verdict
	// Level is the level the retry runs at, Verdict.Level.
	Level consistency.Level
	// Target is the index in the plan of the retry's target.
	Target int
	// Delay is the wait before the retry: the backoff, 0 for none.
	Delay time.Duration
}
