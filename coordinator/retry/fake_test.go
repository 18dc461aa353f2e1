package retry_test

import (
	"context"
	"sync"
	"testing"
	"time"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// target is a fake coordinator: its k-th attempt takes delay, then fails
// with errs[k] if there is one, else answers with its name.
type target struct {
	name  string
	delay time.Duration
	errs  []error
}

// call is one attempt a fake target saw.
type call struct {
	target    string
	level     c.Level
	at        time.Duration // since the cluster was made
	cancelled bool
}

// cluster records the attempts made on fake targets. Its clock is the
// synctest bubble's.
type cluster struct {
	start time.Time
	mu    sync.Mutex
	calls []call
}

func newCluster() *cluster { return &cluster{start: time.Now()} }

func (cl *cluster) elapsed() time.Duration { return time.Since(cl.start) }

// begin logs an attempt on tg and returns its index and tg's count so far.
func (cl *cluster) begin(tg target, l c.Level) (i, k int) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for _, seen := range cl.calls {
		if seen.target == tg.name {
			k++
		}
	}
	cl.calls = append(cl.calls, call{target: tg.name, level: l, at: cl.elapsed()})
	return len(cl.calls) - 1, k
}

func (cl *cluster) cancel(i int) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.calls[i].cancelled = true
}

func (cl *cluster) log() []call {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return append([]call(nil), cl.calls...)
}

// attempt is the executor's view of the fake targets.
func (cl *cluster) attempt(ctx context.Context, tg target, l c.Level) (string, error) {
	i, k := cl.begin(tg, l)
	t := time.NewTimer(tg.delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		cl.cancel(i)
		return "", ctx.Err()
	}
	if k < len(tg.errs) && tg.errs[k] != nil {
		return "", tg.errs[k]
	}
	return tg.name, nil
}

func newExecutor(t testing.TB, cfg retry.Config) *retry.Executor {
	t.Helper()
	ex, err := retry.NewExecutor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// recorder is a Policy that records every question and answers with
// answer (RetryNext at the failed level when nil).
type recorder struct {
	mu     sync.Mutex
	asked  []asked
	answer func(s retry.Statement) retry.Verdict
}

type asked struct {
	callback string
	s        retry.Statement
	n        int
}

func (r *recorder) note(callback string, s retry.Statement, n int) retry.Verdict {
	r.mu.Lock()
	r.asked = append(r.asked, asked{callback, s, n})
	r.mu.Unlock()
	if r.answer != nil {
		return r.answer(s)
	}
	return retry.Verdict{Decision: retry.RetryNext, Level: s.Level}
}

func (r *recorder) questions() []asked {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]asked(nil), r.asked...)
}

func (r *recorder) OnReadTimeout(s retry.Statement, _ *c.ReadTimeoutError, n int) retry.Verdict {
	return r.note("OnReadTimeout", s, n)
}

func (r *recorder) OnWriteTimeout(s retry.Statement, _ *c.WriteTimeoutError, n int) retry.Verdict {
	return r.note("OnWriteTimeout", s, n)
}

func (r *recorder) OnUnavailable(s retry.Statement, _ *c.UnavailableError, n int) retry.Verdict {
	return r.note("OnUnavailable", s, n)
}

func (r *recorder) OnRequestAborted(s retry.Statement, _ error, n int) retry.Verdict {
	return r.note("OnRequestAborted", s, n)
}

func (r *recorder) OnErrorResponse(s retry.Statement, _ error, n int) retry.Verdict {
	return r.note("OnErrorResponse", s, n)
}
