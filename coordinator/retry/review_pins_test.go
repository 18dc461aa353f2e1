package retry_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A downgraded retry runs at the level the policy chose, on the same target,
// and DowngradingPolicy, told of retry 1 when it fails too, rethrows rather
// than downgrade again (ConsistencyDowngradingRetryPolicy: retryCount != 0
// rethrows): one OnDowngrade, one downgrade counted, and the error reports
// the level of the attempt that failed last.
func TestDowngradedRetryRunsAtItsLevelAndIsNotDowngradedAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var downs []retry.Downgrade
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{}, OnDowngrade: func(d retry.Downgrade) { downs = append(downs, d) }})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{readTimeout(c.Quorum, 2, 1, false), readTimeout(c.One, 1, 0, false)}}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrRethrown)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, c.One, ee.Level)
		assert.Equal(t, c.One, res.Level)
		log := cl.log()
		require.Len(t, log, 2)
		assert.Equal(t, c.Quorum, log[0].level)
		assert.Equal(t, c.One, log[1].level)
		assert.Equal(t, "a", log[1].target)
		assert.Len(t, downs, 1)
		assert.Equal(t, uint64(1), ex.Metrics().Downgrades)
	})
}

// Through the executor, for a statement not idempotent (unavailable errors
// pass the gate): an EACH_QUORUM unavailable error counting 0 alive in the
// datacenter that fell short retries at ONE (JAVA-1005), and a second
// unavailable error is rethrown.
func TestEachQuorumNoneAliveRetriesOnceAtOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{}})
		cl := newCluster()
		un := &c.UnavailableError{Level: c.EachQuorum, Required: 2, Alive: 0, Datacenter: "dc2"}
		plan := []target{{name: "a", errs: []error{un, unavailable(c.One, 1, 0)}}, {name: "b"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.EachQuorum, retry.NotIdempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrRethrown)
		log := cl.log()
		require.Len(t, log, 2)
		assert.Equal(t, c.One, log[1].level)
	})
}

// An attempt's error wrapped by the caller with %w is classified through the
// wrap (a read timeout with enough answers but no data: RETRY_SAME, even
// for a statement not idempotent), and an error no policy retries comes
// back unchanged as ExecutionError.Err.
func TestWrappedErrorsAreClassifiedAndPassedThrough(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		rt := readTimeout(c.Quorum, 2, 2, false)
		wrapped := fmt.Errorf("read users: %w", rt)
		plan := []target{{name: "a", errs: []error{wrapped}}, {name: "b"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value, "RETRY_SAME")
		boom := errors.New("boom")
		plan = []target{{name: "z", errs: []error{boom}}, {name: "b"}}
		_, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		assert.Same(t, boom, ee.Err)
		assert.ErrorIs(t, err, retry.ErrRethrown)
	})
}

// An attempt that calls runtime.Goexit on the caller's goroutine (a
// statement that does not speculate) ends that goroutine, as Attempt's doc
// says, after a retry: Execute does not return.
func TestASequentialAttemptThatGoexitsEndsTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Backoff: func(int) time.Duration { return time.Second }})
		done := make(chan bool)
		go func() {
			defer close(done)
			n := 0
			retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []int{0, 1}, func(ctx context.Context, _ int, _ c.Level) (int, error) {
				n++
				if n == 1 {
					return 0, unavailable(c.Quorum, 2, 1)
				}
				runtime.Goexit()
				return 0, nil // not reached
			})
			done <- true
		}()
		_, ok := <-done
		assert.False(t, ok)
	})
}
