package retry_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Ports of apache/cassandra-gocql-driver policies_test.go
// TestDowngradingConsistencyRetryPolicy: the ladder THREE, TWO, ONE. gocql
// counts attempts made (1 after the first failure) where retryCount counts
// retries, and it retries at rung attempts-1 while attempts <= 3; a failed
// attempt's level is the rung before. The statement is at ALL, which every
// rung is below; gocql's LOCAL_QUORUM is TestGocqlLadderFromLocalQuorum.
func TestGocqlDowngradingConsistencyRetryPolicy(t *testing.T) {
	p, err := retry.NewLadderPolicy(c.Three, c.Two, c.One)
	require.NoError(t, err)
	failedAt := []c.Level{c.All, c.Three, c.Two, c.One}
	tests := []struct {
		attempts int
		err      error
		want     retry.Verdict
	}{
		{1, writeTimeout(c.All, c.WriteSimple, 3, 0), rethrown},
		{3, writeTimeout(c.Two, c.WriteBatch, 2, 1), ignored(c.Two)},
		{1, writeTimeout(c.All, c.WriteUnloggedBatch, 3, 0), same(c.Three)},
		{2, readTimeout(c.Three, 3, 0, false), same(c.Two)},
		{3, readTimeout(c.Two, 2, 0, false), same(c.One)},
		{4, unavailable(c.One, 1, 0), rethrown},
		{1, unavailable(c.All, 3, 1), same(c.Three)},
		{4, unavailable(c.One, 1, 1), rethrown}, // gocql: Retry, but Attempt refuses it
		// gocql ignores an acknowledged write whatever the attempts (its
		// executor honours Ignore after Attempt refused a retry); past the
		// last rung the ladder rethrows it, as documented.
		{4, writeTimeout(c.One, c.WriteSimple, 1, 1), rethrown},
	}
	for _, tt := range tests {
		n := tt.attempts - 1
		l := failedAt[min(n, len(failedAt)-1)]
		assert.Equal(t, tt.want, ask(p, stmt(l, retry.Idempotent), tt.err, n), "%v after %d attempts", tt.err, tt.attempts)
	}
}

// gocql's own case, at LOCAL_QUORUM: gocql retries at THREE, then TWO and
// ONE. THREE and TWO may need more replicas than LOCAL_QUORUM (2 of a
// local RF 3, but 1 of a local RF 1), so the ladder rethrows rather than
// raise the level: a documented difference.
func TestGocqlLadderFromLocalQuorum(t *testing.T) {
	p, err := retry.NewLadderPolicy(c.Three, c.Two, c.One)
	require.NoError(t, err)
	lq := stmt(c.LocalQuorum, retry.Idempotent)
	assert.Equal(t, rethrown, ask(p, lq, writeTimeout(c.LocalQuorum, c.WriteUnloggedBatch, 2, 0), 0))
	assert.Equal(t, rethrown, ask(p, lq, readTimeout(c.LocalQuorum, 2, 0, false), 0))
	assert.Equal(t, rethrown, ask(p, lq, unavailable(c.LocalQuorum, 2, 1), 0))
	assert.Equal(t, ignored(c.LocalQuorum), ask(p, lq, writeTimeout(c.LocalQuorum, c.WriteBatch, 2, 1), 0))
}

// TestSimpleRetryPolicy ({NumRetries: 2} allows 3 tries) and
// cassandra_test.go Test_RetryPolicyIdempotence (a policy that always
// retries makes NumRetries+1 tries of an idempotent statement that fails
// with an error response, and one of a statement that is not idempotent):
// MaxRetries is gocql's NumRetries.
func TestGocqlRetriesAreBoundedAndGated(t *testing.T) {
	for _, tt := range []struct {
		max   int
		idem  retry.Idempotence
		tries int
	}{{2, retry.Idempotent, 3}, {5, retry.Idempotent, 6}, {5, retry.NotIdempotent, 1}} {
		synctest.Test(t, func(t *testing.T) {
			always := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
			ex := newExecutor(t, retry.Config{Policy: always, MaxRetries: tt.max})
			cl := newCluster()
			noTable := errors.New("unconfigured table not_existing_table")
			errs := []error{noTable, noTable, noTable, noTable, noTable, noTable, noTable}
			_, err := retry.Execute(t.Context(), ex, stmt(c.All, tt.idem), []target{{name: "a", errs: errs}}, cl.attempt)
			require.ErrorIs(t, err, noTable)
			assert.Len(t, cl.log(), tt.tries, "max %d, %s", tt.max, tt.idem)
		})
	}
}

// session_test.go TestRetryType_IgnoreRethrow: Ignore succeeds even when no
// retry is left, and Ignore and Rethrow both stop retrying.
func TestGocqlIgnoreAndRethrowStopRetries(t *testing.T) {
	for _, tt := range []struct {
		max int
		d   retry.Decision
	}{{0, retry.Ignore}, {1, retry.Ignore}, {1, retry.Rethrow}} {
		synctest.Test(t, func(t *testing.T) {
			pol := &recorder{answer: func(s retry.Statement) retry.Verdict { return retry.Verdict{Decision: tt.d, Level: s.Level} }}
			ex := newExecutor(t, retry.Config{Policy: pol, MaxRetries: tt.max})
			cl := newCluster()
			invalid := errors.New("unconfigured table invalid_table")
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent),
				[]target{{name: "a", errs: []error{invalid, invalid}}}, cl.attempt)
			if tt.d == retry.Ignore {
				require.NoError(t, err, "max %d", tt.max)
				assert.True(t, res.Ignored)
			} else {
				require.ErrorIs(t, err, invalid)
			}
			assert.Len(t, cl.log(), 1)
		})
	}
}

// TestExponentialBackoffPolicy: gocql waits Min×2^(attempts-1) ± Min/2
// (Min 100ms by default), capped at Max (10s). That centre is the ceiling
// of the full-jitter wait here, drawn from [0, ceiling): a documented
// difference.
func TestGocqlExponentialBackoffCentresAreTheCeilings(t *testing.T) {
	b := retry.ExponentialBackoff{Base: 100 * ms, Cap: 10 * time.Second}
	for attempts, want := range map[int]time.Duration{1: 100 * ms, 2: 200 * ms, 3: 400 * ms, 4: 800 * ms,
		8: 10 * time.Second} {
		assert.Equal(t, want, b.Ceiling(attempts-1), "attempts %d", attempts)
	}
}

// conn_test.go TestSpeculativeExecution: three nodes, one speculative
// execution after 200ms, a policy that always retries on the same node,
// and nodes whose first three answers are errors after 120ms and whose
// fourth succeeds at once. Two nodes are tried, one of them four times,
// six requests in all.
func TestGocqlSpeculativeExecution(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		always := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
		ex := newExecutor(t, retry.Config{Policy: always, Speculation: retry.FixedDelay(200 * ms),
			SpeculativeExecutions: 1})
		var mu sync.Mutex
		requests := map[string]int{}
		node := func(ctx context.Context, n string, _ c.Level) (string, error) {
			mu.Lock()
			requests[n]++
			k := requests[n]
			mu.Unlock()
			if k > 3 {
				return "speculative query success on " + n, nil
			}
			select {
			case <-time.After(120 * ms):
				return "", retry.ErrOverloaded
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"n1", "n2", "n3"}, node)
		require.NoError(t, err)
		assert.Equal(t, "speculative query success on n1", res.Value)
		assert.Equal(t, map[string]int{"n1": 4, "n2": 2}, requests)
	})
}
