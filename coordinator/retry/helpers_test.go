package retry_test

import (
	"errors"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

func readTimeout(l c.Level, blockFor, received int, data bool) *c.ReadTimeoutError {
	return &c.ReadTimeoutError{Level: l, BlockFor: blockFor, Received: received, DataPresent: data}
}

func writeTimeout(l c.Level, wt c.WriteType, blockFor, received int) *c.WriteTimeoutError {
	return &c.WriteTimeoutError{Level: l, WriteType: wt, BlockFor: blockFor, Received: received}
}

func unavailable(l c.Level, required, alive int) *c.UnavailableError {
	return &c.UnavailableError{Level: l, Required: required, Alive: alive}
}

// ask calls the callback of p that judges err, as the executor does.
func ask(p retry.Policy, s retry.Statement, err error, n int) retry.Verdict {
	var (
		rt *c.ReadTimeoutError
		wt *c.WriteTimeoutError
		un *c.UnavailableError
	)
	switch {
	case errors.As(err, &rt):
		return p.OnReadTimeout(s, rt, n)
	case errors.As(err, &wt):
		return p.OnWriteTimeout(s, wt, n)
	case errors.As(err, &un):
		return p.OnUnavailable(s, un, n)
	case retry.Classify(err) == retry.CauseRequestAborted:
		return p.OnRequestAborted(s, err, n)
	}
	return p.OnErrorResponse(s, err, n)
}

func same(l c.Level) retry.Verdict    { return retry.Verdict{Decision: retry.RetrySame, Level: l} }
func next(l c.Level) retry.Verdict    { return retry.Verdict{Decision: retry.RetryNext, Level: l} }
func ignored(l c.Level) retry.Verdict { return retry.Verdict{Decision: retry.Ignore, Level: l} }

var rethrown = retry.Verdict{Decision: retry.Rethrow}

func stmt(l c.Level, i retry.Idempotence) retry.Statement {
	return retry.Statement{Level: l, Idempotent: i}
}

var writeTypes = []c.WriteType{c.WriteSimple, c.WriteBatch, c.WriteUnloggedBatch, c.WriteCounter,
	c.WriteBatchLog, c.WriteCAS, c.WriteView, c.WriteCDC}
