package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// The Observer's HedgeEvent says what the trace says of a first-round
// hedge, as its doc has it: the replica, the kind, PhaseInitial (where the
// trace shows the request as PhaseSpeculative), At as HedgeTrace.At, the
// deprecated After equal to At, and the threshold the read ran with.
func TestHedgeEventMatchesTheTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []coordinator.HedgeEvent
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms"),
			Observer: coordinator.ObserverFuncs{Hedge: func(ev coordinator.HedgeEvent) { got = append(got, ev) }}})
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: 0, End: ms(80)}}})

		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		require.Len(t, got, 1)
		ev, h := got[0], res.Trace.Hedge
		require.True(t, h.Fired)
		assert.Equal(t, tbl, ev.Table)
		assert.Equal(t, key, ev.Key)
		assert.Equal(t, h.To, ev.To.ID)
		assert.Equal(t, coordinator.KindData, ev.Kind, "A's data was not in")
		assert.Equal(t, coordinator.PhaseInitial, ev.Phase)
		assert.Equal(t, h.At, ev.At)
		assert.Equal(t, ev.At, ev.After) //nolint:staticcheck // the deprecated name must still be set
		assert.Equal(t, ms(4), ev.Threshold)
		assert.Equal(t, res.Trace.Threshold, ev.Threshold)
		last := res.Trace.Requests[len(res.Trace.Requests)-1]
		assert.Equal(t, coordinator.PhaseSpeculative, last.Phase)
		assert.True(t, last.Speculative)
	})
}
