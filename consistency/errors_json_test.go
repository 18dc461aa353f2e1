package consistency_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
)

// The errors' JSON keeps their reasons as text: an error interface
// marshalled as {}, so a logged timeout lost its cause and a logged
// failure which replica failed how.
func TestErrorsJSONKeepTheirReasons(t *testing.T) {
	cause := errors.New(`the "client" gave up`)
	tests := []struct {
		name string
		err  error
		want string
		back func() error
	}{
		{"read timeout", &c.ReadTimeoutError{Level: c.LocalQuorum, BlockFor: 2, Received: 1, DataPresent: true, Cause: context.DeadlineExceeded},
			`{"Level":"LOCAL_QUORUM","BlockFor":2,"Received":1,"DataPresent":true,"Cause":"context deadline exceeded"}`,
			func() error { return new(c.ReadTimeoutError) }},
		{"read timeout, no cause", &c.ReadTimeoutError{Level: c.One, BlockFor: 1},
			`{"Level":"ONE","BlockFor":1,"Received":0,"DataPresent":false,"Cause":null}`,
			func() error { return new(c.ReadTimeoutError) }},
		{"write timeout", &c.WriteTimeoutError{Level: c.All, WriteType: c.WriteBatchLog, BlockFor: 3, Received: 2, Cause: cause},
			`{"Level":"ALL","WriteType":"BATCH_LOG","BlockFor":3,"Received":2,"Cause":"the \"client\" gave up"}`,
			func() error { return new(c.WriteTimeoutError) }},
		{"read failure", &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Received: 1, Failures: 2,
			Reasons: map[string]error{"b": errors.New("disk"), "a": cause}},
			`{"Level":"QUORUM","BlockFor":2,"Received":1,"Failures":2,"DataPresent":false,"Reasons":{"a":"the \"client\" gave up","b":"disk"}}`,
			func() error { return new(c.ReadFailureError) }},
		{"read failure, no reasons", &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Failures: 2},
			`{"Level":"QUORUM","BlockFor":2,"Received":0,"Failures":2,"DataPresent":false,"Reasons":null}`,
			func() error { return new(c.ReadFailureError) }},
		{"write failure", &c.WriteFailureError{Level: c.Two, WriteType: c.WriteSimple, BlockFor: 2, Received: 1, Failures: 1,
			Reasons: map[string]error{"n1": errors.New("full")}},
			`{"Level":"TWO","WriteType":"SIMPLE","BlockFor":2,"Received":1,"Failures":1,"Reasons":{"n1":"full"}}`,
			func() error { return new(c.WriteFailureError) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.err)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
			back := tt.back()
			require.NoError(t, json.Unmarshal(b, back))
			assert.Equal(t, tt.err.Error(), back.Error(), "read back")
			again, err := json.Marshal(back)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(again), "read back and written again")
		})
	}
}

// An error marshalled by value writes what its pointer does: a struct
// holding one by value (or a log of *err) keeps its reasons too.
func TestErrorsJSONByValue(t *testing.T) {
	e := c.ReadFailureError{Level: c.All, BlockFor: 3, Failures: 1, Reasons: map[string]error{"a": errors.New("disk")}}
	byPtr, err := json.Marshal(&e)
	require.NoError(t, err)
	byVal, err := json.Marshal(e)
	require.NoError(t, err)
	assert.JSONEq(t, string(byPtr), string(byVal))
	var nilErr *c.ReadTimeoutError
	b, err := json.Marshal(nilErr)
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
}

// Reading JSON into an error replaces its reasons rather than merging
// them, leaves those its JSON does not name, and names the field it
// cannot read.
func TestErrorsJSONReading(t *testing.T) {
	e := &c.ReadFailureError{Reasons: map[string]error{"old": errors.New("stale")}}
	require.NoError(t, json.Unmarshal([]byte(`{"Reasons":{"a":"disk","b":null}}`), e))
	require.Len(t, e.Reasons, 2)
	assert.EqualError(t, e.Reasons["a"], "disk")
	assert.Nil(t, e.Reasons["b"])

	e.Reasons = map[string]error{"kept": errors.New("kept")}
	require.NoError(t, json.Unmarshal([]byte(`{"Failures":3}`), e))
	assert.Equal(t, 3, e.Failures)
	assert.EqualError(t, e.Reasons["kept"], "kept", "an absent field is left as it was")
	require.NoError(t, json.Unmarshal([]byte(`{"Reasons":null}`), e))
	assert.Nil(t, e.Reasons)

	w := &c.WriteFailureError{}
	err := json.Unmarshal([]byte(`{"Reasons":{"n\"1":3}}`), w)
	assert.ErrorContains(t, err, `consistency: WriteFailureError.Reasons["n\"1"]`)
	err = json.Unmarshal([]byte(`{"Reasons":["disk"]}`), w)
	assert.ErrorContains(t, err, "consistency: WriteFailureError.Reasons")

	rt := &c.ReadTimeoutError{Cause: context.Canceled}
	require.NoError(t, json.Unmarshal([]byte(`{"BlockFor":2}`), rt))
	assert.Equal(t, context.Canceled, rt.Cause, "an absent cause is left as it was")
	assert.ErrorContains(t, json.Unmarshal([]byte(`{"Cause":7}`), rt), "consistency: ReadTimeoutError.Cause")
	wt := &c.WriteTimeoutError{}
	assert.ErrorContains(t, json.Unmarshal([]byte(`{"Cause":{}}`), wt), "consistency: WriteTimeoutError.Cause")
}
