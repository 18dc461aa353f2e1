package replicatest_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Fault's doc: "Before any of that, a request whose context has already
// ended fails with the context's error, unless the fault is
// IgnoresContext": Down, Unreachable, Panics and ErrorAfter included (a
// cancelled request neither panics nor waits).
func TestAnEndedContextComesBeforeEveryFault(t *testing.T) {
	for _, f := range []replicatest.Fault{replicatest.Down(), replicatest.Unreachable(), replicatest.Panics(),
		replicatest.ErrorAfter(ms(5), nil), {}} {
		t.Run(f.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newReplica(t, with(replicatest.Behavior{Fault: f, Latency: replicatest.Constant(ms(3)),
					Pauses: []replicatest.Window{{Start: 0, End: ms(40)}}}))
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				var took time.Duration
				var err error
				require.NotPanics(t, func() { took, _, err = timedRead(ctx, r, replica.Command{Table: table, Key: "k"}) })
				require.ErrorIs(t, err, context.Canceled)
				assert.Zero(t, took)
				s := r.Stats()
				assert.Equal(t, int64(1), s.Cancellations)
				assert.Zero(t, s.Panics)
				assert.Zero(t, s.Errors)
			})
		})
	}
}

// IgnoresContext: "a request answers after its pauses, queueing and
// latency even if its context ended long before, and the call returns only
// then"; each such answer is a late answer.
func TestIgnoringTheContextWaitsThroughWindowQueueAndLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, with(replicatest.Behavior{Fault: replicatest.IgnoresContext(), Latency: replicatest.Constant(ms(10)),
			Pauses: []replicatest.Window{{Start: 0, End: ms(5)}}}), replicatest.WithWorkers(1, 0))
		require.NoError(t, r.Seed(table, partition("k", "v", 1)))
		ctx, cancel := context.WithTimeout(t.Context(), ms(1))
		defer cancel()
		start := time.Now()
		var mu sync.Mutex
		var ends []time.Duration
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				resp, err := r.Read(ctx, replica.Command{Table: table, Key: "k"})
				assert.NoError(t, err)
				assert.Len(t, resp.Partition.Rows, 1)
				mu.Lock()
				ends = append(ends, time.Since(start))
				mu.Unlock()
			})
		}
		wg.Wait()
		// window to 5 ms, then one worker: 15 ms and 25 ms
		assert.ElementsMatch(t, []time.Duration{ms(15), ms(25)}, ends)
		s := r.Stats()
		assert.Equal(t, int64(2), s.LateAnswers)
		assert.Zero(t, s.Cancellations)
	})
}

// Window edges: [Start, End) holds an arrival at Start, not at End, and
// windows that touch or overlap chain.
func TestPauseWindowEdges(t *testing.T) {
	for _, c := range []struct {
		name    string
		windows []replicatest.Window
		arrive  time.Duration
		answer  time.Duration
	}{
		{"arrival at the start waits", []replicatest.Window{{Start: ms(10), End: ms(20)}}, ms(10), ms(20)},
		{"arrival at the end does not", []replicatest.Window{{Start: ms(10), End: ms(20)}}, ms(20), ms(20)},
		{"arrival just before the start does not", []replicatest.Window{{Start: ms(10), End: ms(20)}}, ms(9), ms(9)},
		{"touching windows chain", []replicatest.Window{{Start: ms(20), End: ms(30)}, {Start: ms(10), End: ms(20)}}, ms(15), ms(30)},
		{"overlapping windows chain", []replicatest.Window{{Start: ms(10), End: ms(25)}, {Start: ms(20), End: ms(40)}}, ms(12), ms(40)},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newReplica(t, with(replicatest.Behavior{Pauses: c.windows}))
				time.Sleep(c.arrive)
				_, _, err := timedRead(t.Context(), r, replica.Command{Table: table, Key: "k"})
				require.NoError(t, err)
				assert.Equal(t, c.answer, time.Since(r.Start()))
			})
		})
	}
}

// The same seed and the same requests give the same service times,
// whatever the fault does to them: a request that a Down or ErrorAfter
// fault fails still draws, so healing the replica shifts no later draw.
func TestFaultedRequestsDrawLikeOthers(t *testing.T) {
	durations := func(t *testing.T, faultFirst bool) []time.Duration {
		var out []time.Duration
		synctest.Test(t, func(t *testing.T) {
			r := newReplica(t, replicatest.WithSeed(7), latency(replicatest.LogNormal(ms(2), 1)))
			if faultFirst {
				require.NoError(t, r.SetFault(replicatest.Down()))
			}
			_, _, _ = timedRead(t.Context(), r, replica.Command{Table: table, Key: "k"})
			require.NoError(t, r.SetFault(replicatest.Fault{}))
			for range 5 {
				d, _, err := timedRead(t.Context(), r, replica.Command{Table: table, Key: "k"})
				require.NoError(t, err)
				out = append(out, d)
			}
		})
		return out
	}
	healthy, faulted := durations(t, false), durations(t, true)
	assert.Equal(t, healthy, faulted)
	assert.NotEqual(t, healthy[0], healthy[1], "the draws vary")
}

// nilPointerError is an error whose Error reads its receiver, as most do:
// a nil *nilPointerError in an error interface crashes whoever prints it.
type nilPointerError struct{ msg string }

func (e *nilPointerError) Error() string { return e.msg }

// ErrorAfter's doc: "A nil err fails with ErrInjected". A nil pointer
// returned as an error is not a nil error, yet no one can print it; the
// fault must not crash the replica, nor NewReplica, which "never panics",
// nor SetFault, nor its String.
func TestErrorAfterANilPointerFailsWithErrInjected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var nilErr *nilPointerError
		f := replicatest.ErrorAfter(ms(2), nilErr)
		var r *replicatest.Replica
		require.NotPanics(t, func() { r = replicatest.NewReplica(ep, with(replicatest.Behavior{Fault: f})) }, "NewReplica")
		require.NoError(t, r.Err())
		require.NotPanics(t, func() { require.NoError(t, r.SetFault(f)) }, "SetFault")
		require.NotPanics(t, func() { _ = r.Behavior().String() }, "Behavior.String")
		var took time.Duration
		var err error
		require.NotPanics(t, func() { took, _, err = timedRead(t.Context(), r, replica.Command{Table: table, Key: "k"}) }, "Read")
		require.ErrorIs(t, err, replicatest.ErrInjected)
		assert.Equal(t, ms(2), took)
		assert.Equal(t, "replicatest: read on n1: replicatest: injected error", err.Error())
	})
}
