package retry_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// IdempotentOnlyPolicy's doc: "Once means once after a failure that reached
// a target: a request not sent (ErrNotSent) does not count (see Policy), so
// past targets that could not be sent to it goes on to the next, as the Java
// driver skips them." Its one retry, after node1's read timeout, goes to
// node2, which cannot be sent to. The Java driver (CqlRequestHandler.sendRequest
// polls the query plan past every node it has no channel to, without
// counting) would send that retry to node3. The policy instead rethrows
// node2's ErrNotSent, because the retry count it is told is already 1 and
// nextOnce allows retry 0 only: the statement fails having reached one
// target.
func TestIdempotentOnlyRetryGoesPastANodeNotSentTo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retry.IdempotentOnlyPolicy{}})
		cl := newCluster()
		plan := []target{
			{name: "node1", errs: []error{readTimeout(c.Quorum, 2, 1, false)}},
			{name: "node2", errs: []error{errBootstrapping}},
			{name: "node3"},
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err, "the retry should skip node2, to which nothing was sent")
		assert.Equal(t, "node3", res.Value)
		assert.Equal(t, []string{"node1", "node2", "node3"}, targets(cl.log()))
	})
}
