package retry_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Ports of apache/cassandra-java-driver
// core/src/test/java/com/datastax/oss/driver/internal/core/cql/CqlRequestHandlerSpeculativeExecutionTest.java,
// with a speculative execution due at 100ms and errBootstrapping (RETRY_NEXT
// under DefaultPolicy) as the failure.

// should_fail_if_no_more_nodes_and_initial_execution_is_last and
// should_fail_if_no_more_nodes_and_speculative_execution_is_last: the
// execution that finds the plan empty stops without failing the statement
// while the other runs; the last to fail fails it, with both failures.
func TestJavaSpecexFailsWhenNoMoreNodes(t *testing.T) {
	for _, tt := range []struct {
		name         string
		node1, node2 time.Duration // when each answers, from its start
		lastTarget   int
	}{
		{"initial execution is last", 150 * ms, 0, 0},
		{"speculative execution is last", 150 * ms, 100 * ms, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ex := speculating(t, retry.FixedDelay(100*ms))
				cl := newCluster()
				plan := []target{{name: "node1", delay: tt.node1, errs: []error{errBootstrapping}},
					{name: "node2", delay: tt.node2, errs: []error{errBootstrapping}}}
				_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
				require.ErrorIs(t, err, retry.ErrPlanExhausted)
				require.ErrorIs(t, err, errBootstrapping)
				var ee *retry.ExecutionError
				require.ErrorAs(t, err, &ee)
				require.Equal(t, 2, ee.Attempts.Len())
				assert.Equal(t, tt.lastTarget, ee.Attempts.At(1).Target)
				for _, a := range ee.Attempts.All() {
					assert.ErrorIs(t, a.Err, errBootstrapping)
				}
				assert.Equal(t, []string{"node1", "node2"}, targets(cl.log()))
			})
		})
	}
}

// should_retry_in_speculative_executions: the speculative execution's
// failure moves it to node3, which answers; node1, still in flight, is
// cancelled.
func TestJavaSpecexRetriesInSpeculativeExecutions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(100*ms))
		cl := newCluster()
		plan := []target{{name: "node1", delay: time.Hour}, {name: "node2", errs: []error{errBootstrapping}},
			{name: "node3"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "node3", res.Value)
		assert.Equal(t, []call{{target: "node1", level: c.Quorum, cancelled: true},
			{target: "node2", level: c.Quorum, at: 100 * ms}, {target: "node3", level: c.Quorum, at: 100 * ms}}, cl.log())
	})
}

// should_stop_retrying_other_executions_if_result_complete: node1 answers
// after the speculative execution started; node2's failure, which comes
// after (it ignores its cancellation), must not move on to node3.
func TestJavaSpecexStopsRetryingOnceComplete(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(100*ms))
		var mu sync.Mutex
		var sent []string
		deaf := func(_ context.Context, node string, _ c.Level) (string, error) {
			mu.Lock()
			sent = append(sent, node)
			mu.Unlock()
			switch node {
			case "node1":
				time.Sleep(150 * ms)
				return node, nil
			case "node2":
				time.Sleep(100 * ms)
				return "", errBootstrapping
			}
			return node, nil
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent),
			[]string{"node1", "node2", "node3"}, deaf)
		require.NoError(t, err)
		assert.Equal(t, "node1", res.Value)
		assert.Equal(t, []string{"node1", "node2"}, sent)
		assert.Zero(t, ex.Metrics().TotalRetries())
	})
}
