package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A local replica that hangs from its first request, honouring its
// context, is missed by the read that hedges around it, and no later read
// asks it or needs a hedge. It had no latency of its own to be late by, so
// each hedge's cancellation of it was no miss: over 3+3 it stayed a
// contact of every QUORUM read, each saved by a hedge until the budget was
// spent, and then one timed out on it (a user's drill). Now a request
// cancelled unanswered after twice its read's slowest answer is late by
// its peers' measure. Peers that answer in no measurable time
// (replicatest's fakes in a bubble, as the drill's were) measure it too.
func TestALocalReplicaThatHangsFromItsFirstRequestIsMissedByTheFirstRead(t *testing.T) {
	for _, level := range []consistency.Level{consistency.Three, consistency.Quorum} {
		for _, peers := range []time.Duration{ms(1), 0} {
			t.Run(fmt.Sprint(level, "/", peers), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { firstReadMissesAHungLocal(t, level, peers) })
			})
		}
	}
}

func firstReadMissesAHungLocal(t *testing.T, level consistency.Level, peers time.Duration) {
	e := newTwoDCs(t, coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "5ms")})
	for _, id := range twoDCs {
		e.behave(t, id, constant(peers))
	}
	e.behave(t, d1n2, stopsAnswering)
	for i := range 30 {
		res, _, err := e.read(level)
		settle()
		require.NoError(t, err, "read %d:\n%s", i, res.Trace)
		if i == 0 {
			require.True(t, res.Trace.Hedge.Fired, "the first read asks it and hedges:\n%s", res.Trace)
			continue
		}
		assert.False(t, res.Trace.Hedge.Fired, "read %d hedged:\n%s", i, res.Trace)
		for _, rq := range res.Trace.Requests {
			require.NotEqual(t, d1n2, rq.Endpoint, "read %d asked it:\n%s", i, res.Trace)
		}
	}
	assert.Equal(t, int64(1), replicaMetrics(e.c, d1n2).Misses)
}

// A replica that has not answered is late by its peers' measure only past
// twice the read's slowest answer: a loser of a hedge that its peer
// answered about as slowly is no miss, as a replica that has answered is
// late only past twice its own latency.
func TestALoserThatNeverAnsweredIsLateOnlyPastTwiceItsPeersAnswer(t *testing.T) {
	for _, c := range []struct {
		peer   time.Duration // B's answer to the hedge sent at 5 ms; A is cancelled when it comes
		misses int64
	}{
		{ms(1), 1},  // A cancelled after 6 ms, past 2 ms
		{ms(10), 0}, // after 15 ms, within 20 ms
	} {
		t.Run(fmt.Sprint(c.peer), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnvOn(t, threeNodes(t), coordinator.Config{DefaultTable: policy(t, "5ms")})
				e.behave(t, A, constant(ms(50)))
				e.behave(t, B, constant(c.peer))
				res, _, err := e.read(consistency.One)
				require.NoError(t, err)
				settle()
				require.Equal(t, A, res.Trace.Requests[0].Endpoint, res.Trace)
				require.True(t, res.Trace.Hedge.Fired, res.Trace)
				assert.Equal(t, c.misses, replicaMetrics(e.c, A).Misses)
			})
		})
	}
}

// A read its caller ended says nothing of the replicas it had not heard
// from, however fast another answered: a caller that gives up sooner than
// replicas answer must not make them look missing. A returns a moment
// after its context ends, as a remote replica's adapter does, so that the
// read has ended before the snitch hears of A.
func TestACallersCancellationMakesNoReplicaThatNeverAnsweredLate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Locator: wrapping(cl, 1, func(r replica.Replica) replica.Replica { return lingers{r} })})
		e.behave(t, A, stopsAnswering)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(10), cancel)
		res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.ErrorIs(t, err, context.Canceled)
		time.Sleep(ms(1)) // A lets go
		settle()
		require.Len(t, res.Trace.Requests, 2, res.Trace)
		require.Equal(t, A, res.Trace.Requests[0].Endpoint, res.Trace)
		require.Equal(t, coordinator.Answered, res.Trace.Requests[1].Outcome, res.Trace)
		assert.Zero(t, replicaMetrics(e.c, A).Misses)
	})
}

// lingers returns from a read a millisecond after its context ends.
type lingers struct{ replica.Replica }

func (r lingers) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if ctx.Err() != nil {
		time.Sleep(ms(1))
	}
	return resp, err
}
