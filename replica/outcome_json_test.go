package replica_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// An Outcome an OutcomeReporter writes as JSON keeps its error as its text
// and reads back, whatever its Replica adapter is: the adapter is left
// out, named by the Endpoint (taken from it when the Endpoint has no ID);
// a nil error is null.
func TestOutcomeJSONKeepsErr(t *testing.T) {
	ep := replica.Endpoint{ID: "n1", Datacenter: "dc1", Rack: "r1"}
	failed := fmt.Errorf("rpc: %w", replica.ErrConnectionFailed)
	for _, o := range []replica.Outcome{
		{Replica: fakeReplica{}, Endpoint: ep, Err: failed, Latency: 3 * time.Millisecond},
		{Replica: versioned{max: 2}, Endpoint: ep, Latency: time.Millisecond},
		{Replica: fakeReplica{}, Err: replica.ErrOverloaded},
	} {
		b, err := json.Marshal(o)
		require.NoError(t, err)
		assert.NotContains(t, string(b), `"Replica"`)
		var back replica.Outcome
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		if o.Err == nil {
			assert.Contains(t, string(b), `"Err":null`)
			assert.NoError(t, back.Err)
		} else {
			assert.Contains(t, string(b), `"Err":"`+o.Err.Error()+`"`)
			assert.EqualError(t, back.Err, o.Err.Error())
		}
		want := o.Endpoint
		if want.ID == "" {
			want = o.Replica.Endpoint()
		}
		assert.Equal(t, replica.Outcome{Endpoint: want, Latency: o.Latency}, replica.Outcome{Endpoint: back.Endpoint, Latency: back.Latency})
		assert.Nil(t, back.Replica)
	}
	b, err := json.Marshal(replica.Outcome{Replica: (*nilAdapter)(nil)})
	require.NoError(t, err, "a nil pointer as the adapter is not asked its Endpoint")
	assert.Contains(t, string(b), `"Endpoint":{"ID":""`)
	var back replica.Outcome
	require.NoError(t, json.Unmarshal([]byte(`{"Replica":{"max":2},"Err":null}`), &back), "an older line's Replica is ignored")
	require.Error(t, json.Unmarshal([]byte(`{"Err":{}}`), &back), "an Err that is not text")
}

// nilAdapter is an adapter whose nil pointer panics when asked anything.
type nilAdapter struct{ fakeReplica }
