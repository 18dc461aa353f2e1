package retry_test

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// roundTrip marshals v and reads it back into a new T.
func roundTrip[T any](t *testing.T, v T) (string, T) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var back T
	require.NoError(t, json.Unmarshal(b, &back), "%s", b)
	return string(b), back
}

// The events and the result of a statement retried down a ladder, written
// as JSON by an OnRetry or OnDowngrade hook or the caller, keep each
// failure's text and write the enums as their names, and read back: a nil
// error is null, and the statement's policy its type's name.
func TestRetryJSONKeepsErrorsAndNames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ladder, err := retry.NewLadderPolicy(c.Two, c.One)
		require.NoError(t, err)
		cl := newCluster()
		var events []retry.RetryEvent
		var downgrades []retry.Downgrade
		ex := newExecutor(t, retry.Config{Policy: ladder,
			OnDowngrade: func(d retry.Downgrade) { downgrades = append(downgrades, d) },
			OnRetry:     func(ev retry.RetryEvent) { events = append(events, ev) }})
		first := unavailable(c.Quorum, 2, 1)
		plan := []target{{name: "a", delay: ms, errs: []error{first}}}
		s := stmt(c.Quorum, retry.Idempotent)
		s.Policy = ladder
		res, err := retry.Execute(t.Context(), ex, s, plan, cl.attempt)
		require.NoError(t, err)
		require.Len(t, events, 1)
		require.Len(t, downgrades, 1)

		text, _ := json.Marshal(first.Error())
		b, ev := roundTrip(t, events[0])
		assert.Contains(t, b, `"Err":`+string(text))
		assert.Contains(t, b, `"Cause":"UNAVAILABLE"`)
		assert.Contains(t, b, `"Verdict":{"Decision":"RETRY_SAME","Level":"TWO"}`)
		assert.Contains(t, b, `"Idempotent":"IDEMPOTENT","Policy":"retry.LadderPolicy"`)
		assert.EqualError(t, ev.Err, first.Error())
		want := events[0]
		want.Err, ev.Err = nil, nil
		want.Statement.Policy = nil
		assert.Equal(t, want, ev)

		b, d := roundTrip(t, downgrades[0])
		assert.Contains(t, b, `"Cause":"UNAVAILABLE"`)
		assert.Equal(t, downgrades[0], d)

		b, back := roundTrip(t, res)
		assert.Contains(t, b, `"Cause":"READ_TIMEOUT","Verdict":{"Decision":"RETHROW","Level":"ANY"},"Err":null,"Reason":null`,
			"the winning attempt")
		require.Equal(t, 2, back.Attempts.Len())
		assert.EqualError(t, back.Attempts.At(0).Err, first.Error())
		assert.NoError(t, back.Attempts.At(1).Err)
		for i := range 2 {
			want, got := res.Attempts.At(i), back.Attempts.At(i)
			want.Err, got.Err = nil, nil
			assert.Equal(t, want, got, "attempt %d", i)
		}
	})
}

// An event's retry count, target and backoff are written under their
// field names, the delay in nanoseconds (json.go), and read back: a log of
// OnRetry events shows which retry waited how long before which target.
func TestRetryEventJSONKeepsRetryTargetAndDelay(t *testing.T) {
	ev := retry.RetryEvent{Statement: stmt(c.Quorum, retry.Idempotent), Retry: 2, Err: retry.ErrOverloaded,
		Cause: retry.CauseErrorResponse, Verdict: next(c.One), Level: c.One, Target: 3, Delay: 5 * time.Millisecond}
	b, back := roundTrip(t, ev)
	assert.Contains(t, b, `"Retry":2,`)
	assert.Contains(t, b, `"Level":"ONE","Target":3,"Delay":5000000,`)
	assert.EqualError(t, back.Err, retry.ErrOverloaded.Error())
	ev.Err, back.Err = nil, nil
	assert.Equal(t, ev, back)
}

// A failed statement's attempts keep their errors and reasons as text; an
// undefined enum does not marshal, and neither reads back from a name it
// does not have.
func TestRetryJSONFailuresAndBadValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newCluster()
		ex := newExecutor(t, retry.Config{Policy: retry.FallthroughPolicy{}})
		plan := []target{{name: "a", delay: ms, errs: []error{overloaded}}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		var ee *retry.ExecutionError
		require.ErrorAs(t, err, &ee)
		b, back := roundTrip(t, ee.Attempts)
		assert.Contains(t, b, `"Cause":"ERROR_RESPONSE"`)
		assert.Contains(t, b, `"Reason":"`+retry.ErrRethrown.Error()+`"`)
		require.Equal(t, 1, back.Len())
		assert.EqualError(t, back.At(0).Err, overloaded.Error())
		assert.EqualError(t, back.At(0).Reason, retry.ErrRethrown.Error())
	})

	_, err := json.Marshal(retry.Verdict{Decision: retry.Decision(9)})
	assert.ErrorIs(t, err, retry.ErrUnknownDecision)
	_, err = json.Marshal(retry.Downgrade{Cause: retry.Cause(7)})
	assert.ErrorIs(t, err, retry.ErrUnknownCause)
	_, err = json.Marshal(retry.Statement{Idempotent: retry.Idempotence(3)})
	assert.ErrorIs(t, err, retry.ErrUnknownIdempotence)

	d := retry.Downgrade{Cause: retry.CauseWriteTimeout}
	err = json.Unmarshal([]byte(`{"Cause":"TIMEOUT"}`), &d)
	assert.ErrorIs(t, err, retry.ErrUnknownCause)
	assert.Equal(t, retry.CauseWriteTimeout, d.Cause, "left unchanged")
	var ev retry.RetryEvent
	require.Error(t, json.Unmarshal([]byte(`{"Err":{}}`), &ev), "an Err that is not text")
	require.NoError(t, json.Unmarshal([]byte(`{"Err":null,"Verdict":{"Decision":"retry_next"}}`), &ev))
	assert.NoError(t, ev.Err)
	assert.Equal(t, retry.RetryNext, ev.Verdict.Decision)
	s := retry.Statement{Policy: retry.FallthroughPolicy{}}
	require.NoError(t, json.Unmarshal([]byte(`{"Level":"ONE"}`), &s))
	assert.Equal(t, retry.FallthroughPolicy{}, s.Policy, "an absent Policy is left")
	require.NoError(t, json.Unmarshal([]byte(`{"Policy":"retry.FallthroughPolicy"}`), &s))
	assert.Nil(t, s.Policy)

	// A zero History is an empty array, and reads back empty.
	b, h := roundTrip(t, retry.History{})
	assert.Equal(t, "[]", b)
	assert.Zero(t, h.Len())
}

// History.UnmarshalJSON replaces the attempts with the array's, as json
// replaces a slice, and null leaves them as they were (json.go's doc).
func TestHistoryJSONReplacesAttemptsAndNullKeepsThem(t *testing.T) {
	var h retry.History
	require.NoError(t, json.Unmarshal([]byte(`[{"Target":0},{"Target":1}]`), &h))
	require.Equal(t, 2, h.Len())
	require.NoError(t, json.Unmarshal([]byte(`null`), &h))
	assert.Equal(t, 2, h.Len(), "null leaves the attempts")
	require.NoError(t, json.Unmarshal([]byte(`[{"Target":2}]`), &h))
	require.Equal(t, 1, h.Len(), "an array replaces the attempts")
	assert.Equal(t, 2, h.At(0).Target)
}
