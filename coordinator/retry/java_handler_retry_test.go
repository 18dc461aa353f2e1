package retry_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Ports of apache/cassandra-java-driver
// core/src/test/java/com/datastax/oss/driver/internal/core/cql/CqlRequestHandlerRetryTest.java:
// what is retried, on which target, and what the caller gets.

// errBootstrapping stands for the protocol's IS_BOOTSTRAPPING error: the node
// refused the request without executing it, which ErrNotSent says.
var errBootstrapping = fmt.Errorf("node1 is bootstrapping: %w", retry.ErrNotSent)

// idempotenceConfig is one of the Java harness's idempotence set-ups: the
// statement's own flag and the executor's default.
type idempotenceConfig struct {
	name     string
	idem     retry.Idempotence
	dflt     bool
	resolved retry.Idempotence
}

var (
	idempotentConfigs = []idempotenceConfig{
		{"idempotent", retry.Idempotent, false, retry.Idempotent},
		{"unset, default idempotent", retry.IdempotenceUnset, true, retry.Idempotent},
	}
	nonIdempotentConfigs = []idempotenceConfig{
		{"not idempotent", retry.NotIdempotent, true, retry.NotIdempotent},
		{"unset, default not idempotent", retry.IdempotenceUnset, false, retry.NotIdempotent},
	}
	allIdempotenceConfigs = append(append([]idempotenceConfig(nil), idempotentConfigs...), nonIdempotentConfigs...)
)

// should_always_try_next_node_if_bootstrapping. Java moves on without
// asking the policy or counting a retry; the executor asks it
// (DefaultPolicy answers RETRY_NEXT) and counts one.
func TestJavaHandlerTriesNextNodeIfBootstrapping(t *testing.T) {
	for _, ic := range allIdempotenceConfigs {
		t.Run(ic.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ex := newExecutor(t, retry.Config{DefaultIdempotent: ic.dflt})
				cl := newCluster()
				plan := []target{{name: "node1", errs: []error{errBootstrapping}}, {name: "node2"}}
				res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, ic.idem), plan, cl.attempt)
				require.NoError(t, err)
				assert.Equal(t, "node2", res.Value)
				require.Equal(t, 2, res.Attempts.Len())
				assert.Equal(t, 0, res.Attempts.At(0).Target)
				assert.ErrorIs(t, res.Attempts.At(0).Err, errBootstrapping)
				assert.Equal(t, retry.AttemptRecord{Target: 1, Level: c.Quorum}, res.Attempts.At(1))
				assert.Equal(t, uint64(1), ex.Metrics().Retries[retry.CauseRequestAborted])
			})
		})
	}
}

// A retry past a node the request was never sent to (errBootstrapping, or
// any ErrNotSent) consumes none of the policy's allowance: a read timeout
// on the next node (enough replicas, no data) comes at retry count 0, and
// DefaultPolicy retries it on the same node, as Java does, which moves past
// a errBootstrapping node without counting. Counted, it came at 1 and was
// rethrown.
func TestANodeNotSentToCountsNoRetryForThePolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		noData := readTimeout(c.Quorum, 2, 2, false)
		plan := []target{{name: "node1", errs: []error{errBootstrapping}}, {name: "node2", errs: []error{noData}}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, []string{"node1", "node2", "node2"}, targets(cl.log()))
		assert.Equal(t, uint64(2), ex.Metrics().TotalRetries(), "both retries count in the metrics")
	})
}

// should_always_rethrow_query_validation_error: an error the policies do
// not know (the executor cannot tell an invalid query from any other) is
// rethrown by DefaultPolicy from the first node, whatever the idempotence.
func TestJavaHandlerRethrowsQueryValidationError(t *testing.T) {
	invalid := errors.New("mock message")
	for _, ic := range allIdempotenceConfigs {
		t.Run(ic.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ex := newExecutor(t, retry.Config{DefaultIdempotent: ic.dflt})
				cl := newCluster()
				plan := []target{{name: "node1", errs: []error{invalid}}, {name: "node2"}}
				_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, ic.idem), plan, cl.attempt)
				require.ErrorIs(t, err, invalid)
				assert.Equal(t, []string{"node1"}, targets(cl.log()))
				assert.Zero(t, ex.Metrics().TotalRetries())
			})
		})
	}
}

// failureScenario is one of the handler test's failures, as node1
// returns it, with the callback that judges it.
type failureScenario struct {
	name     string
	err      error
	callback string
	cause    retry.Cause
}

var javaHandlerFailures = []failureScenario{
	{"read timeout", readTimeout(c.LocalOne, 2, 1, true), "OnReadTimeout", retry.CauseReadTimeout},
	{"write timeout", writeTimeout(c.LocalOne, c.WriteSimple, 2, 1), "OnWriteTimeout", retry.CauseWriteTimeout},
	{"unavailable", unavailable(c.LocalOne, 2, 1), "OnUnavailable", retry.CauseUnavailable},
	{"server error", retry.ErrServerError, "OnErrorResponse", retry.CauseErrorResponse},
	{"heartbeat", retry.ErrHeartbeatFailed, "OnRequestAborted", retry.CauseRequestAborted},
}

// should_try_next_node_/should_try_same_node_/should_ignore_error_/
// should_rethrow_error_if_idempotent_and_retry_policy_decides_so: for each
// failure, the policy is asked once, at the failed level with retry count
// 0, and its verdict is carried out.
func TestJavaHandlerFollowsTheVerdictIfIdempotent(t *testing.T) {
	for _, f := range javaHandlerFailures {
		for _, ic := range idempotentConfigs {
			for _, d := range []retry.Decision{retry.RetryNext, retry.RetrySame, retry.Ignore, retry.Rethrow} {
				t.Run(f.name+"/"+ic.name+"/"+d.String(), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						checkJavaVerdict(t, f, ic, d)
					})
				})
			}
		}
	}
}

func checkJavaVerdict(t *testing.T, f failureScenario, ic idempotenceConfig, d retry.Decision) {
	pol := &recorder{answer: func(s retry.Statement) retry.Verdict { return retry.Verdict{Decision: d, Level: s.Level} }}
	ex := newExecutor(t, retry.Config{Policy: pol, DefaultIdempotent: ic.dflt})
	cl := newCluster()
	plan := []target{{name: "node1", errs: []error{f.err}}, {name: "node2"}}
	res, err := retry.Execute(t.Context(), ex, stmt(c.LocalOne, ic.idem), plan, cl.attempt)
	assert.Equal(t, []asked{{f.callback, stmt(c.LocalOne, ic.resolved), 0}}, pol.questions())
	m := ex.Metrics()
	switch d {
	case retry.RetryNext, retry.RetrySame:
		require.NoError(t, err)
		want := map[retry.Decision]string{retry.RetryNext: "node2", retry.RetrySame: "node1"}[d]
		assert.Equal(t, want, res.Value)
		assert.Equal(t, []string{"node1", want}, targets(cl.log()))
		assert.Equal(t, uint64(1), m.Retries[f.cause])
		assert.Equal(t, uint64(1), m.RetrySuccesses)
	case retry.Ignore:
		require.NoError(t, err)
		assert.True(t, res.Ignored)
		assert.Empty(t, res.Value)
		assert.Equal(t, []string{"node1"}, targets(cl.log()))
		assert.Equal(t, uint64(1), m.Ignores)
	case retry.Rethrow:
		require.ErrorIs(t, err, retry.ErrRethrown)
		assert.ErrorIs(t, err, f.err)
		assert.Equal(t, []string{"node1"}, targets(cl.log()))
	}
}

// IdempotentOnlyPolicy's one retry is one after a failure that reached a
// target: past two nodes it could not send to, it goes on to a third, and
// retries that one's read timeout on a fourth.
func TestIdempotentOnlyGoesPastNodesNotSentTo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retry.IdempotentOnlyPolicy{}})
		cl := newCluster()
		plan := []target{{name: "node1", errs: []error{errBootstrapping}}, {name: "node2", errs: []error{errBootstrapping}},
			{name: "node3", errs: []error{readTimeout(c.Quorum, 1, 2, false)}}, {name: "node4"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, []string{"node1", "node2", "node3", "node4"}, targets(cl.log()))
	})
}
