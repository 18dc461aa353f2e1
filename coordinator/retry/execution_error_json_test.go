package retry_test

import (
	"encoding/json"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A failed statement's error, logged as JSON, says why it stopped and how
// its last attempt failed (as interfaces they marshalled as {}), with its
// levels and attempts, and reads back.
func TestExecutionErrorJSONKeepsReasonAndErr(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newCluster()
		ex := newExecutor(t, retry.Config{Policy: retry.FallthroughPolicy{}})
		plan := []target{{name: "a", delay: ms, errs: []error{overloaded}}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)

		b, back := roundTrip(t, ee)
		reason, _ := json.Marshal(retry.ErrRethrown.Error())
		last, _ := json.Marshal(overloaded.Error())
		assert.Contains(t, b, `"Reason":`+string(reason))
		assert.Contains(t, b, `"Err":`+string(last))
		assert.Contains(t, b, `"Level":"QUORUM","Requested":"QUORUM"`)
		assert.Equal(t, ee.Error(), back.Error())
		assert.Equal(t, ee.Attempts.Len(), back.Attempts.Len())
		byValue, err := json.Marshal(*ee)
		require.NoError(t, err)
		assert.JSONEq(t, b, string(byValue), "by value as by pointer")

		var none retry.ExecutionError
		require.NoError(t, json.Unmarshal([]byte(`{"Reason":null,"Err":null}`), &none))
		assert.NoError(t, none.Reason)
		assert.NoError(t, none.Err)
		assert.ErrorContains(t, json.Unmarshal([]byte(`{"Reason":1}`), &none), "retry: ExecutionError.Reason")
		assert.ErrorContains(t, json.Unmarshal([]byte(`{"Err":[]}`), &none), "retry: ExecutionError.Err")
	})
}
