package retry_test

import (
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A statement a broken policy ended (ErrInvalidVerdict: an undefined
// decision or level) can be logged as JSON: its record writes the refused
// verdict as text and reads it back as Rethrow, what the executor did, its
// Reason saying why. (Found by a review: json.Marshal of the
// ExecutionError failed on the verdict's enum, so the failure a caller
// most needs to log could not be.)
func TestRefusedVerdictMarshals(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    retry.Verdict
		text string
	}{
		{"undefined decision", retry.Verdict{Decision: 9, Level: c.Quorum}, "Decision(9) at QUORUM"},
		{"undefined level", retry.Verdict{Decision: retry.RetryNext, Level: 99}, "RETRY_NEXT at " + c.Level(99).String()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pol := &recorder{answer: func(retry.Statement) retry.Verdict { return tt.v }}
				ex := newExecutor(t, retry.Config{Policy: pol})
				cl := newCluster()
				plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "b"}}
				_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
				var ee *retry.ExecutionError
				require.True(t, errors.As(err, &ee), "%v", err)
				require.ErrorIs(t, err, retry.ErrInvalidVerdict)

				b, err := json.Marshal(ee)
				require.NoError(t, err)
				verdict, _ := json.Marshal(tt.v.String())
				assert.Contains(t, string(b), `"Verdict":`+string(verdict))
				var back retry.ExecutionError
				require.NoError(t, json.Unmarshal(b, &back), "%s", b)
				require.Equal(t, 1, back.Attempts.Len())
				rec := back.Attempts.At(0)
				assert.Equal(t, retry.Verdict{Decision: retry.Rethrow}, rec.Verdict)
				assert.EqualError(t, rec.Reason, retry.ErrInvalidVerdict.Error())
				assert.Equal(t, tt.text, tt.v.String())
			})
		})
	}
}

// A verdict that marshals is still written as its names and reads back
// whole; a record without one, or with null, keeps the one it held.
func TestAttemptRecordVerdictJSON(t *testing.T) {
	rec := retry.AttemptRecord{Level: c.Quorum, Err: errors.New("x"), Verdict: retry.Verdict{Decision: retry.RetryNext, Level: c.One}}
	s, back := roundTrip(t, rec)
	assert.Contains(t, s, `"Verdict":{"Decision":"RETRY_NEXT","Level":"ONE"}`)
	assert.Equal(t, rec.Verdict, back.Verdict)
	for _, doc := range []string{`{"Target":1}`, `{"Target":1,"Verdict":null}`} {
		held := retry.AttemptRecord{Verdict: rec.Verdict}
		require.NoError(t, json.Unmarshal([]byte(doc), &held))
		assert.Equal(t, rec.Verdict, held.Verdict, doc)
	}
	var bad retry.AttemptRecord
	assert.Error(t, json.Unmarshal([]byte(`{"Verdict":{"Decision":"MAYBE"}}`), &bad))
}
