package coordinator

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// roundOf returns a read whose running round sent one request per outcome
// and has ticks waiting on its channel.
func roundOf(outcomes ...Outcome) *read {
	r := &read{}
	r.newRound(PhaseInitial, len(outcomes), true, false)
	for i, o := range outcomes {
		r.calls = append(r.calls, &call{idx: i})
		r.trace.Requests = append(r.trace.Requests, RequestTrace{Outcome: o})
	}
	r.rd.ch <- tick
	r.rd.ch <- tick
	return r
}

// A round whose requests have all answered can hear nothing more, so the
// next read takes its channel, empty.
func TestAnAnsweredRoundsChannelIsReusedEmpty(t *testing.T) {
	r := roundOf(Answered, Failed)
	ch := r.reusableChannel()
	require.NotNil(t, ch)
	require.Zero(t, len(ch), "stale ticks left for the next read")

	next := &read{readState: readState{spareCh: ch}}
	next.newRound(PhaseInitial, 2, true, false)
	require.Equal(t, ch, next.rd.ch)
	require.Nil(t, next.spareCh)
}

// A request still out when the read ends will answer on the round's
// channel: no other read may take it.
func TestARoundWithARequestOutKeepsItsChannel(t *testing.T) {
	r := roundOf(Answered, Pending)
	require.NotEqual(t, r.rd.ch, r.reusableChannel())
}

// A read that ran no round, or could not take the spare channel, hands it
// on.
func TestAnUntakenSpareIsHandedOn(t *testing.T) {
	spare := make(chan int, 8)
	require.Equal(t, spare, (&read{readState: readState{spareCh: spare}}).reusableChannel())
	r := roundOf(Pending)
	r.spareCh = spare
	require.Equal(t, spare, r.reusableChannel())
}

// A read whose timer is not yet recycled keeps its round's channel: the
// timer may still tick into it.
func TestARoundWithATimerKeepsItsChannel(t *testing.T) {
	r := roundOf(Answered, Answered)
	r.timer = &readTimer{}
	require.NotEqual(t, r.rd.ch, r.reusableChannel())
}

// Only a spare of exactly the round's size is taken: a smaller one has no
// room for its requests, and a larger one would hide a round that sends
// more requests than it made room for.
func TestASpareOfAnotherSizeIsNotTaken(t *testing.T) {
	for _, size := range []int{1, 3 + maxTicks - 1, 3 + maxTicks + 1} {
		spare := make(chan int, size)
		r := &read{readState: readState{spareCh: spare}}
		r.newRound(PhaseInitial, 3, true, false)
		require.NotEqual(t, spare, r.rd.ch, "spare of %d taken", size)
		require.Equal(t, 3+maxTicks, cap(r.rd.ch))
		require.Equal(t, spare, r.spareCh, "the untaken spare is kept")
	}
}

// A released read holds on to nothing of its read: release clears only the
// part of its inline buffers the read used, and that must be all it used,
// also when its slices grew past them.
func TestAReleasedReadHoldsNothing(t *testing.T) {
	for _, n := range []int{1, 3, inline, inline + 5} {
		c := &Coordinator{}
		r := &read{readState: readState{c: c}}
		placed := min(n, inlineReplicas)
		r.placed = placed
		for i := range placed {
			r.epBuf[i] = replica.Endpoint{ID: "a"}
			r.candBuf[i] = candidate{ep: r.epBuf[i]}
		}
		for i := range n {
			k := &call{idx: i, ctx: context.Background(), cand: candidate{score: new(score)}}
			k.holders.Store(2) // still the worker's: dropByRead leaves it be
			if r.calls == nil {
				r.calls, r.trace.Requests, r.answers = r.callBuf[:0], r.reqBuf[:0], r.ansBuf[:0]
			}
			r.calls = append(r.calls, k)
			r.trace.Requests = append(r.trace.Requests, RequestTrace{Endpoint: "a", Outcome: Answered})
			r.answers = append(r.answers, k)
		}
		r.release()
		require.Zero(t, r.inlineBufs, "%d requests", n)
		require.Zero(t, r.readState, "%d requests", n)
	}
}
