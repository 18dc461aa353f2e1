package coordinator

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// A read's goroutine that did not run for a while takes its speculation's
// tick late, with the round's answers already waiting behind it: they
// complete the round, and nothing is speculated.
func TestAnswersWaitingBehindATickCountFirst(t *testing.T) {
	r := roundSent(time.Hour, 2, []RequestKind{KindData, KindDigest}, nil)
	r.rd.armed = true
	r.rd.ch <- tick
	r.rd.ch <- 0
	r.rd.ch <- 1

	require.NoError(t, gatherAndEnd(r))
	require.True(t, r.rd.maySpeculate, "it speculated with the round's answers in")
	require.Equal(t, NotSuppressed, r.trace.Hedge.Suppressed)
	require.Len(t, r.answers, 2)
}

// deadlineOnLook is a replica's error that ends the read's context when
// the read looks at it: the read's deadline passing while it takes the
// answers that waited behind a late tick, at a chosen instant.
type deadlineOnLook struct{ ctx *readContext }

func (e deadlineOnLook) Error() string { return "failed as the deadline passed" }

func (e deadlineOnLook) Is(error) bool {
	e.ctx.cancel(readDeadline)
	return false
}

// A speculation's tick taken late, with answers waiting behind it, sends
// nothing when the deadline passed as the read took them: the read ends
// by its deadline, as it does when it finds the deadline's tick first, and
// books no speculation that could not have answered in time.
func TestADeadlinePassedBehindALateTickEndsTheReadWithoutSpeculating(t *testing.T) {
	errs := func(r *read, i int) error {
		if i == 1 {
			return deadlineOnLook{r.ctx}
		}
		return nil
	}
	r := roundSent(0, 2, []RequestKind{KindData, KindDigest, KindDigest}, errs)
	r.rd.armed = true
	r.rd.ch <- tick
	r.rd.ch <- 0
	r.rd.ch <- 1

	err := gatherAndEnd(r)
	var timeout *consistency.ReadTimeoutError
	require.True(t, errors.As(err, &timeout), "%v", err)
	require.Zero(t, r.trace.Hedge)
}

// Only a request of the running round still out that no worker has taken
// up yet puts its speculation off (that delay is the coordinator's own,
// and a speculative request would wait behind it): not one of an earlier
// round, still waiting for a worker, which says nothing of this round's
// requests, nor one refused unsent (BacklogError), which none will take.
func TestOnlyAnUnstartedRequestOutPostponesASpeculation(t *testing.T) {
	for _, earlier := range []bool{true, false} {
		c := &Coordinator{}
		c.timers.New = func() any { return new(readTimer) }
		r := &read{readState: readState{c: c, t: &table{}, parent: context.Background()}}
		r.ctx = newReadContext(context.Background(), time.Now().Add(time.Hour))
		r.plan.blockFor = 1
		r.newRound(PhaseInitial, 2, true, true)
		for i := range 2 {
			k := &call{idx: i}
			k.started.Store(i == 1)
			r.calls = append(r.calls, k)
			r.trace.Requests = append(r.trace.Requests, RequestTrace{Kind: KindData})
			r.rd.sent(&k.cand, true)
			if i == 0 && earlier {
				r.newRound(PhaseReconcile, 1, true, true)
			}
		}
		if !earlier {
			r.trace.Requests[0].Outcome = Failed // refused unsent
		}
		r.rd.wait = time.Millisecond

		postponed := r.postponeSpeculation()
		if r.timer != nil {
			r.timer.recycle(&c.timers)
		}
		r.ctx.cancel(nil)
		require.False(t, postponed, "earlier %v", earlier)
		require.Zero(t, r.roundHedge().Postponed, "earlier %v", earlier)
	}
}

// roundSent is a QUORUM read, due in due, whose first round has sent
// requests of kinds to replicas a, b, c..., all taken up by workers: errs
// (if not nil) gives each its error, nil for an answer. Tests feed its
// gather by hand.
func roundSent(due time.Duration, blockFor int, kinds []RequestKind,
	errs func(r *read, i int) error) *read {
	c := &Coordinator{}
	c.timers.New = func() any { return new(readTimer) }
	r := &read{readState: readState{c: c, t: &table{}, parent: context.Background(),
		req: Request{Level: consistency.Quorum}}}
	r.ctx = newReadContext(context.Background(), time.Now().Add(due))
	r.plan.blockFor = blockFor
	r.newRound(PhaseInitial, len(kinds), true, true)
	for i, kind := range kinds {
		k := &call{idx: i, cmd: replica.Command{DigestOnly: kind == KindDigest}}
		k.cand.ep.ID = string(rune('a' + i))
		k.started.Store(true)
		if errs != nil {
			k.err = errs(r, i)
		}
		r.calls = append(r.calls, k)
		r.trace.Requests = append(r.trace.Requests, RequestTrace{Kind: kind})
		r.rd.sent(&k.cand, kind == KindData)
	}
	return r
}

// gatherAndEnd runs r's gather and ends the read: its timer recycled, its
// context cancelled.
func gatherAndEnd(r *read) error {
	err := r.gather()
	if r.timer != nil {
		r.timer.recycle(&r.c.timers)
	}
	r.ctx.cancel(nil)
	return err
}
