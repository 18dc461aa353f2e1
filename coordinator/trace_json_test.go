package coordinator_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A failed read's trace, written as JSON by an exporter, keeps each
// request's failure as its text, and reads back with errors of that text:
// an error interface alone would marshal as {} and not read back at all.
func TestTraceJSONKeepsErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(10), nil)})
		e.behave(t, B, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(10), nil)})
		e.behave(t, C, unreachable)
		res, _, err := e.read(consistency.Quorum)
		require.Error(t, err)
		settle()

		b, err := json.MarshalIndent(res.Trace, "", "\t")
		require.NoError(t, err)
		golden(t, "trace.json", string(b)+"\n")

		var back coordinator.Trace
		require.NoError(t, json.Unmarshal(b, &back))
		require.Len(t, back.Requests, len(res.Trace.Requests))
		failed := 0
		for i, r := range res.Trace.Requests {
			got := back.Requests[i]
			if r.Err == nil {
				assert.NoError(t, got.Err, "request %d", i)
			} else {
				failed++
				assert.EqualError(t, got.Err, r.Err.Error(), "request %d", i)
			}
			got.Err, r.Err = nil, nil
			assert.Equal(t, r, got, "request %d", i)
		}
		assert.Equal(t, 2, failed)
		back.Requests, res.Trace.Requests = nil, nil
		assert.True(t, res.Trace.Start.Equal(back.Start), "%v, %v", res.Trace.Start, back.Start)
		back.Start = res.Trace.Start // the same instant, in another *time.Location
		assert.Equal(t, res.Trace, back)
	})
}

// A nil error marshals as null and reads back nil; an error's text reads
// back as an error of that text; a text that is not a string is an error.
func TestRequestTraceJSONErr(t *testing.T) {
	b, err := json.Marshal(coordinator.RequestTrace{Endpoint: "a", Outcome: coordinator.Answered})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"Err":null`)
	back := coordinator.RequestTrace{Err: errors.New("stale")}
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, coordinator.RequestTrace{Endpoint: "a", Outcome: coordinator.Answered}, back)

	r := coordinator.RequestTrace{Endpoint: "b", Outcome: coordinator.Failed, Err: errors.New(`"quoted" <failure>`)}
	b, err = json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"Err":"\"quoted\" \u003cfailure\u003e"`)
	back = coordinator.RequestTrace{}
	require.NoError(t, json.Unmarshal(b, &back))
	assert.EqualError(t, back.Err, `"quoted" <failure>`)
	assert.Equal(t, "b", back.Endpoint)
	assert.Equal(t, coordinator.Failed, back.Outcome)

	require.Error(t, json.Unmarshal([]byte(`{"Err":3}`), &back))

	// A trace built by hand with a nil pointer, or an error whose Error
	// panics, in Err marshals, as String prints it, not panics.
	for _, bad := range []error{(*nilError)(nil), panickyError{}} {
		b, err = json.Marshal(coordinator.RequestTrace{Err: bad})
		require.NoError(t, err)
		back = coordinator.RequestTrace{}
		require.NoError(t, json.Unmarshal(b, &back))
		assert.EqualError(t, back.Err, fmt.Sprint(bad))
	}
}

type nilError struct{ text string }

func (e *nilError) Error() string { return e.text }

type panickyError struct{}

func (panickyError) Error() string { panic("no text") }
