package coordinator

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A read's goroutine that did not run for a while takes its speculation's
// tick late, with the round's answers already waiting behind it: they
// complete the round, and nothing is speculated.
func TestAnswersWaitingBehindATickCountFirst(t *testing.T) {
	c := &Coordinator{}
	c.timers.New = func() any { return new(readTimer) }
	r := &read{readState: readState{c: c, t: &table{}, parent: context.Background()}}
	r.ctx = newReadContext(context.Background(), time.Now().Add(time.Hour))
	defer r.ctx.cancel(nil)
	r.plan.blockFor = 2
	r.newRound(PhaseInitial, 2, true, true)
	for i, kind := range []RequestKind{KindData, KindDigest} {
		k := &call{idx: i, cmd: replica.Command{DigestOnly: kind == KindDigest}}
		k.started.Store(true)
		r.calls = append(r.calls, k)
		r.trace.Requests = append(r.trace.Requests, RequestTrace{Kind: kind})
		r.rd.sent(&k.cand, kind == KindData)
	}
	r.rd.armed = true
	r.rd.ch <- tick
	r.rd.ch <- 0
	r.rd.ch <- 1

	require.NoError(t, r.gather())
	if r.timer != nil {
		r.timer.recycle(&c.timers)
	}
	require.True(t, r.rd.maySpeculate, "it speculated with the round's answers in")
	require.Equal(t, NotSuppressed, r.trace.Hedge.Suppressed)
	require.Len(t, r.answers, 2)
}
