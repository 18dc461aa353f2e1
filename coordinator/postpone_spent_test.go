package coordinator_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// B fails at 1 ms, so the first round hedges to C at once; C's request is
// not taken up by the coordinator's goroutines until 70 ms. At the 50 ms
// threshold the round has no speculation left to put off: nothing is
// postponed, and C's answer ends the read at 71 ms.
func TestNoPostponementOnceTheRoundHasSpeculated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "50ms")})
		e.behave(t, B, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(1), errors.New("disk"))})
		toC := func(k coordinator.HeldCall) bool { return k.Replica == C }
		res, took := e.heldRead(t, toC, ms(70), nil)
		assert.Equal(t, ms(71), took, "%s", res.Trace)
		h := res.Trace.Hedge
		assert.True(t, h.Fired)
		assert.Equal(t, ms(1), h.At, "hedged at B's failure")
		assert.Zero(t, h.Postponed, "no speculation was due at the threshold\n%s", res.Trace)
		settle()
		assert.Zero(t, e.c.Metrics().Total.PostponedSpeculations)
	})
}
