package retry_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Whatever the targets answer, the policy decides, and the deadline or a
// cancellation cuts short, every attempt the target functions saw, but the
// first, is a retry or a speculative attempt counted in Metrics and paid
// for by one budget token, and none other is: the budget is never
// overdrawn, and a token whose attempt never started is refunded. In
// speculative execution the first attempt itself may never start (a
// speculative one won first). A success is the last record of its History.
func TestExecutorAccountsForEveryAttempt(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tenths := func(label string, hi int) time.Duration {
			return time.Duration(rapid.IntRange(0, hi).Draw(rt, label)) * 10 * ms
		}
		failures := []error{readTimeout(c.Quorum, 2, 1, false), unavailable(c.Quorum, 2, 1), retry.ErrOverloaded, nil}
		var plan []target
		for i := range rapid.IntRange(1, 5).Draw(rt, "targets") {
			tg := target{name: fmt.Sprint("t", i), delay: tenths("delay", 6)}
			for range rapid.IntRange(0, 3).Draw(rt, "answers") {
				tg.errs = append(tg.errs, rapid.SampledFrom(failures).Draw(rt, "answer"))
			}
			plan = append(plan, tg)
		}
		var policy verdictByCount
		for range rapid.IntRange(1, 4).Draw(rt, "verdicts") {
			policy = append(policy, retry.Decision(rapid.IntRange(0, 3).Draw(rt, "decision")))
		}
		floor := rapid.IntRange(0, 4).Draw(rt, "floor")
		backoff := tenths("backoff", 6)
		speculate := rapid.Bool().Draw(rt, "speculate")
		delay, executions := tenths("speculation delay", 6), rapid.IntRange(0, 3).Draw(rt, "executions")
		timeout, cancelAt := tenths("timeout", 20), tenths("cancel at", 20)

		var fail string
		synctest.Test(t, func(t *testing.T) {
			b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: float64(floor), Window: time.Second})
			cfg := retry.Config{Budget: b, Backoff: func(int) time.Duration { return backoff }, MaxRetries: 3, Policy: policy}
			if speculate {
				cfg.Speculation, cfg.SpeculativeExecutions = retry.FixedDelay(delay), executions
			}
			ex := newExecutor(t, cfg)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if cancelAt > 0 {
				defer time.AfterFunc(cancelAt, cancel).Stop()
			}
			if timeout > 0 {
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			cl := newCluster()
			res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)

			m := ex.Metrics()
			calls, extra := len(cl.log()), m.TotalRetries()+m.SpeculativeAttempts
			spent := float64(floor) - b.Available(time.Now())
			switch first := int64(calls) - int64(extra); {
			case first != 1 && !(speculate && first == 0):
				fail = fmt.Sprintf("%d calls, %d retries and %d speculative attempts counted (err %v)",
					calls, m.TotalRetries(), m.SpeculativeAttempts, err)
			case spent != float64(extra):
				fail = fmt.Sprintf("%v budget tokens kept for %d extra attempts (err %v)", spent, extra, err)
			case res.Attempts.Len() > calls:
				fail = fmt.Sprintf("%d records of %d calls", res.Attempts.Len(), calls)
			case err == nil && !res.Ignored:
				if last := res.Attempts.At(res.Attempts.Len() - 1); last.Err != nil || plan[last.Target].name != res.Value {
					fail = fmt.Sprintf("%q won, but the last record is %v", res.Value, last)
				}
			}
		})
		if fail != "" {
			rt.Fatal(fail)
		}
	})
}

// verdictByCount answers the n-th retry count with its verdict n modulo its
// length, at the failed level, whatever the failure.
type verdictByCount []retry.Decision

func (p verdictByCount) at(s retry.Statement, n int) retry.Verdict {
	return retry.Verdict{Decision: p[n%len(p)], Level: s.Level}
}

func (p verdictByCount) OnReadTimeout(s retry.Statement, _ *c.ReadTimeoutError, n int) retry.Verdict {
	return p.at(s, n)
}

func (p verdictByCount) OnWriteTimeout(s retry.Statement, _ *c.WriteTimeoutError, n int) retry.Verdict {
	return p.at(s, n)
}

func (p verdictByCount) OnUnavailable(s retry.Statement, _ *c.UnavailableError, n int) retry.Verdict {
	return p.at(s, n)
}

func (p verdictByCount) OnRequestAborted(s retry.Statement, _ error, n int) retry.Verdict {
	return p.at(s, n)
}

func (p verdictByCount) OnErrorResponse(s retry.Statement, _ error, n int) retry.Verdict {
	return p.at(s, n)
}
