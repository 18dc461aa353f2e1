package coordinator

import (
	"testing"

	"github.com/stretchr/testify/require"
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

	next := &read{spareCh: ch}
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
	require.Equal(t, spare, (&read{spareCh: spare}).reusableChannel())
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
		r := &read{spareCh: spare}
		r.newRound(PhaseInitial, 3, true, false)
		require.NotEqual(t, spare, r.rd.ch, "spare of %d taken", size)
		require.Equal(t, 3+maxTicks, cap(r.rd.ch))
		require.Equal(t, spare, r.spareCh, "the untaken spare is kept")
	}
}
