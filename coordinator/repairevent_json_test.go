package coordinator_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A RepairEvent written as JSON by an observer keeps a dropped repair's
// reason as its text, and reads back, as a trace's requests do; a nil
// error is null.
func TestRepairEventJSONKeepsErr(t *testing.T) {
	sent := time.Date(2026, 12, 6, 1, 2, 3, 4, time.UTC)
	for _, ev := range []coordinator.RepairEvent{
		{Table: tbl, Key: key, To: replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"},
			Mode: repair.Async, Mutation: row(key, "v", 10), Sent: sent, Took: ms(3)},
		{Table: tbl, Key: key, To: replica.Endpoint{ID: "b"}, Mode: repair.Async,
			Mutation: row(key, "v", 10), Err: coordinator.ErrTableDropped, Dropped: true},
	} {
		b, err := json.Marshal(ev)
		require.NoError(t, err)
		var back coordinator.RepairEvent
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		if ev.Err == nil {
			assert.Contains(t, string(b), `"Err":null`)
			assert.NoError(t, back.Err)
		} else {
			assert.Contains(t, string(b), `"Err":"`+ev.Err.Error()+`"`)
			assert.EqualError(t, back.Err, ev.Err.Error())
		}
		assert.Contains(t, string(b), `"Mode":"ASYNC"`)
		back.Err, ev.Err = nil, nil
		assert.True(t, ev.Sent.Equal(back.Sent))
		back.Sent = ev.Sent // the same instant, in another *time.Location
		assert.Equal(t, ev, back)
	}
}
