package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// slowToAsk is a Liveness that, once armed, takes a millisecond to answer
// about one replica: the read's goroutine pauses before a request to it,
// and the answers of the requests it sent before queue up meanwhile.
type slowToAsk struct {
	id    string
	armed atomic.Bool
}

func (l *slowToAsk) IsAlive(ep replica.Endpoint) bool {
	if ep.ID == l.id && l.armed.Load() {
		time.Sleep(ms(1))
	}
	return true
}

// A request refused for its replica's backlog is booked as failed in the
// trace even when the round completes on answers that arrived before it:
// its refusal is not left waiting on the round's channel, shown as a
// request that was sent and cancelled.
func TestRefusedRequestIsFailedInTheTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		live := &slowToAsk{id: C}
		c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: live, ReadTimeout: ms(10),
			MaxAbandonedPerReplica: 1, DefaultTable: policy(t, "ALWAYS"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()
		e.hangs(t, C)
		e.behave(t, A, constant(0))
		e.behave(t, B, constant(0))

		// live holds the read 1 ms at each question about C: planning it,
		// deciding on ALWAYS's extra request, and choosing C for it, from
		// 9.5 ms on, while A and B answer and C reaches its cap at 10.
		capMidRead(t, c, ms(7.5))
		live.armed.Store(true)
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		require.Len(t, res.Trace.Requests, 3)
		rt := res.Trace.Requests[2]
		assert.Equal(t, C, rt.Endpoint)
		assert.Equal(t, coordinator.Failed, rt.Outcome, "%v", res.Trace)
		var backlog *coordinator.BacklogError
		assert.ErrorAs(t, rt.Err, &backlog)
		live.armed.Store(false)
		drain()
	})
}

// A refused request counts among its table's requests, which a read made,
// and not among its replica's, which were sent.
func TestRefusedRequestCountsInTheTableNotTheReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 1, DefaultTable: policy(t, "NEVER")})
		e.hangs(t, A)
		e.timeOut(t, 1, consistency.All)
		_, _, err := e.read(consistency.All)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)

		m := e.c.Metrics()
		var sent int64
		for _, r := range m.Replicas {
			sent += r.Requests
		}
		assert.Equal(t, int64(6), m.Total.DataRequests+m.Total.DigestRequests, "two reads at ALL over three replicas")
		assert.Equal(t, int64(5), sent, "A's second request was not sent")
		drain()
	})
}

// Requests abandoned before ForgetReplica end on the count they were
// booked on, the forgotten one: the replica's new count neither starts
// with them nor goes below zero when they return.
func TestForgottenAbandonedRequestsLeaveTheNewCountAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 2, DefaultTable: policy(t, "NEVER")})
		e.hangs(t, A)
		e.timeOut(t, 2, consistency.All)
		e.c.ForgetReplica(A)
		e.timeOut(t, 1, consistency.All) // sent: the cap starts again
		assert.Equal(t, int64(1), e.abandoned(t, A))
		assert.Equal(t, int64(3), e.stats(A).Reads)
		drain()
		assert.Zero(t, e.abandoned(t, A))
	})
}
