package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Too few live replicas: the read fails before anything is sent.
func TestUnavailableBeforeAnyRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SetAlive(A, false))
		require.NoError(t, e.cluster.SetAlive(B, false))

		_, took, err := e.read(consistency.Quorum)
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.Quorum, Required: 2, Alive: 1}, *u)
		assert.Zero(t, took)
		assert.Zero(t, e.cluster.Stats().Reads, "nothing was sent")
		assert.Equal(t, int64(1), e.c.Metrics().Total.Unavailable)

		_, _, err = e.read(consistency.One)
		assert.NoError(t, err, "ONE only needs C")
	})
}

// A timeout reports exactly what arrived.
func TestTimeoutCarriesTheCounts(t *testing.T) {
	tests := []struct {
		name        string
		unreachable []string
		received    int
		dataPresent bool
	}{
		{"data in, digest missing", []string{B, C}, 1, true},
		{"digest in, data missing", []string{A, C}, 1, false},
		{"nothing in", []string{A, B, C}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
				for _, id := range tt.unreachable {
					require.NoError(t, e.replica(id).SetFault(replicatest.Unreachable()))
				}
				_, took, err := e.read(consistency.Quorum)
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				assert.Equal(t, ms(50), took)
				assert.Equal(t, 2, timeout.BlockFor)
				assert.Equal(t, tt.received, timeout.Received)
				assert.Equal(t, tt.dataPresent, timeout.DataPresent)
				assert.ErrorIs(t, err, context.DeadlineExceeded)
				assert.Equal(t, int64(1), e.c.Metrics().Total.Timeouts)
			})
		})
	}
}

// seen is what a replica saw of its context.
type seen struct {
	deadline    time.Time
	hasDeadline bool
	err, cause  error // once a context derived from it was done
}

// spy hangs until a context derived from its own is done, and reports
// what it saw.
type spy struct {
	replica.Replica
	saw chan seen
}

func (s spy) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	var v seen
	v.deadline, v.hasDeadline = ctx.Deadline()
	child, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	<-child.Done()
	v.err, v.cause = ctx.Err(), context.Cause(ctx)
	s.saw <- v
	return replica.Response{}, ctx.Err()
}

// Replicas are called with the read's deadline, the caller's or the read
// timeout, whichever is first, and see context.DeadlineExceeded when it
// passes, in contexts they derive too.
func TestReplicasSeeTheReadsDeadline(t *testing.T) {
	for _, tt := range []struct {
		name   string
		caller time.Duration // the caller's timeout; 0 for none
		want   time.Duration
	}{
		{"read timeout", 0, ms(50)},
		{"caller's deadline", ms(20), ms(20)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				saw := make(chan seen, 1)
				locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return spy{r, saw} })
				c, err := coordinator.New(coordinator.Config{Locator: locate, ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
				require.NoError(t, err)
				defer c.Close()
				ctx := context.Background()
				if tt.caller > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.caller)
					defer cancel()
				}
				start := time.Now()
				_, err = c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				v := <-saw
				assert.True(t, v.hasDeadline)
				assert.Equal(t, start.Add(tt.want), v.deadline)
				assert.Equal(t, context.DeadlineExceeded, v.err)
				assert.ErrorIs(t, v.cause, context.DeadlineExceeded)
			})
		})
	}
}

// Replicas that fail because the deadline cancelled them do not turn the
// timeout into a failure, however their answers and the coordinator's
// timer interleave: every read times out.
func TestDeadlineIsATimeoutWhenReplicasFailBecauseOfIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(5), DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, B, C} {
			require.NoError(t, e.replica(id).SetFault(replicatest.Unreachable()))
		}
		for range 1000 {
			_, _, err := e.read(consistency.Quorum)
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout)
		}
	})
}

// The caller's deadline, when earlier than the read timeout, bounds the read.
func TestCallerDeadlineBoundsTheRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.behave(t, A, constant(ms(100)))
		ctx, cancel := context.WithTimeout(context.Background(), ms(20))
		defer cancel()
		start := time.Now()
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(20), time.Since(start))
		assert.Equal(t, 2, timeout.Received)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

// Cancellation by the caller is not a timeout: it is returned wrapped.
func TestCallerCancellation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.behave(t, A, constant(ms(100)))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(7), cancel)
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.ErrorIs(t, err, context.Canceled)
		var timeout *consistency.ReadTimeoutError
		assert.NotErrorAs(t, err, &timeout)
		assert.Equal(t, int64(1), e.c.Metrics().Total.Cancelled)
	})
}

// Failures that leave blockFor unreachable end the read at once. Under
// ALWAYS a QUORUM read of RF 3 tolerates one failure, not two.
func TestFailuresBeyondToleranceFailEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS")})
		require.NoError(t, e.replica(A).SetFault(replicatest.Down()))
		require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(ms(2), nil)))
		e.behave(t, C, constant(ms(10)))

		_, took, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, ms(2), took, "as soon as B fails, before C answers")
		assert.Equal(t, 2, failure.Failures)
		assert.Equal(t, 0, failure.Received)
		assert.Equal(t, 2, failure.BlockFor)
		assert.ErrorIs(t, failure.Reasons[A], replicatest.ErrDown)
		assert.ErrorIs(t, failure.Reasons[B], replicatest.ErrInjected)
		assert.Equal(t, int64(1), e.c.Metrics().Total.Failures)
	})
}

// Without speculation, a failed data request leaves no way to get the
// data: the read fails at once rather than wait for the timeout.
func TestFailedDataRequestFailsAtOnceWithoutSpeculation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(ms(3), nil)))

		_, took, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, ms(3), took)
		assert.Equal(t, 1, failure.Failures)
		assert.Equal(t, 1, failure.Received, "B's digest arrived at 1 ms")
		assert.False(t, failure.DataPresent)
	})
}

// A failure that leaves the read short hedges at once instead of waiting
// for the threshold: the hedge could only help.
func TestFailureHedgesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "40ms")})
		require.NoError(t, e.replica(A).SetFault(replicatest.Down()))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took)
		assert.Equal(t, C, res.Trace.Hedge.To)
		assert.Zero(t, res.Trace.Hedge.At)
		assert.Equal(t, int64(1), e.stats(C).DataReads, "A was to send the data")
	})
}

// A hedge sent early because of a failure is the read's one hedge: the
// threshold passing later sends no second one.
func TestEarlyHedgeIsTheOnlyHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms")})
		require.NoError(t, e.replica(A).SetFault(replicatest.Down()))
		e.behave(t, B, constant(ms(50)))

		_, took, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, ms(50), took)
		assert.Zero(t, e.stats(C).Reads)
		assert.Equal(t, int64(1), e.c.Metrics().Total.SpeculativeRetries)
	})
}
