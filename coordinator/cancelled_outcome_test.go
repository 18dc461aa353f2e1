package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// refusesWhenCancelled is a replica whose adapter answers a request whose
// context ended with a transport error of its own, as a client that tears
// its stream down may, instead of the context's error the conformance kit
// asks for. Its writes hang until their context ends when hangWrites.
type refusesWhenCancelled struct {
	replica.Replica
	hangWrites bool
}

var errStreamClosed = fmt.Errorf("transport: stream closed: %w", replica.ErrConnectionFailed)

func (r refusesWhenCancelled) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if err != nil && ctx.Err() != nil {
		return resp, errStreamClosed
	}
	return resp, err
}

func (r refusesWhenCancelled) Apply(ctx context.Context, m replica.Mutation) error {
	if r.hangWrites {
		<-ctx.Done()
		return errStreamClosed
	}
	err := r.Replica.Apply(ctx, m)
	if err != nil && ctx.Err() != nil {
		return errStreamClosed
	}
	return err
}

// outcomeErrs records the errors told to Config.Outcomes, by replica, and
// passes the outcomes on to a failure detector.
type outcomeErrs struct {
	next replica.OutcomeReporter
	mu   sync.Mutex
	errs map[string][]error
}

func (l *outcomeErrs) ReportOutcome(o replica.Outcome) {
	l.mu.Lock()
	l.errs[o.Endpoint.ID] = append(l.errs[o.Endpoint.ID], o.Err)
	l.mu.Unlock()
	l.next.ReportOutcome(o)
}

func (l *outcomeErrs) of(id string) []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.errs[id]
}

// refusingSetup is a coordinator over cl, whose replicas are wrapped by
// wrap, with a ring.Detector for liveness, told every outcome through an
// outcomeErrs.
func refusingSetup(t *testing.T, cl *replicatest.Cluster, cfg coordinator.Config, wrap func(replica.Replica) replica.Replica) (*coordinator.Coordinator, *ring.Detector, *outcomeErrs) {
	t.Helper()
	d, err := ring.NewDetector(ring.DetectorConfig{Seed: 1})
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	log := &outcomeErrs{next: d, errs: map[string][]error{}}
	cfg.Locator, cfg.Liveness, cfg.Outcomes = wrapping(cl, 3, wrap), d, log
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c, d, log
}

func replicaMetrics(c *coordinator.Coordinator, id string) coordinator.ReplicaMetrics {
	for _, r := range c.Metrics().Replicas {
		if r.Endpoint.ID == id {
			return r
		}
	}
	return coordinator.ReplicaMetrics{}
}

// assertCutShort checks that id's requests, all cut short by the
// coordinator or its caller, ended with want, the context's error, for the
// outcome reporter, and that the failure detector did not convict it.
func assertCutShort(t *testing.T, cl *replicatest.Cluster, d *ring.Detector, log *outcomeErrs, id string, want error) {
	t.Helper()
	errs := log.of(id)
	require.NotEmpty(t, errs, id)
	for _, err := range errs {
		assert.ErrorIs(t, err, want, id)
		assert.False(t, replica.IsConnectionFailure(err), "%s: %v", id, err)
	}
	assert.True(t, d.IsAlive(endpoint(cl, id)), "%s is not convicted for a request the coordinator cut short", id)
}

func wrapRefusing(r replica.Replica) replica.Replica { return refusesWhenCancelled{Replica: r} }

// A request the coordinator cut short ends with the context's error,
// whatever error the replica's adapter gave once its context had ended: a
// loser of a hedge, or a request the read timeout or the caller ended, that
// its adapter answers with replica.ErrConnectionFailed is no connection
// failure for the failure detector, no miss for the snitch (beyond what a
// cancellation or a timeout is), and leaves the read's error a timeout or
// a cancellation, not a failure; nor is an ASYNC repair write that timed
// out or that Close cancelled.
func TestCutShortRequestsAreNotFailuresWhateverTheAdapterSays(t *testing.T) {
	t.Run("hedge won", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cl := threeNodes(t)
			require.NoError(t, cl.Replica(A).SetBehavior(replicatest.Behavior{Latency: replicatest.Constant(ms(50))}))
			// B's 10 ms answer to the hedge sent at 5 ms leaves A cancelled
			// after 15 ms, within twice its peer's time: early.
			require.NoError(t, cl.Replica(B).SetBehavior(replicatest.Behavior{Latency: replicatest.Constant(ms(10))}))
			c, d, log := refusingSetup(t, cl, coordinator.Config{DefaultTable: policy(t, "5ms")}, wrapRefusing)

			res, err := readAt(c, tbl, consistency.One)
			require.NoError(t, err)
			require.Equal(t, A, res.Trace.Requests[0].Endpoint)
			require.Len(t, res.Trace.Requests, 2, "a hedge to B, which won")
			settle()
			assertCutShort(t, cl, d, log, A, context.Canceled)
			assert.Zero(t, replicaMetrics(c, A).Misses, "a hedged loser cancelled early is no miss")
		})
	})
	t.Run("read timeout", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cl := threeNodes(t)
			require.NoError(t, cl.Replica(A).SetFault(replicatest.Unreachable()))
			c, d, log := refusingSetup(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: ms(50)}, wrapRefusing)

			res, err := readAt(c, tbl, consistency.One)
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout)
			require.Len(t, res.Trace.Requests, 1)
			assert.Equal(t, coordinator.Pending, res.Trace.Requests[0].Outcome)
			settle()
			assertCutShort(t, cl, d, log, A, context.DeadlineExceeded)
			assert.Equal(t, ms(50), replicaMetrics(c, A).Latency, "timed out: waited for the read timeout")
			m := c.Metrics().Total
			assert.Equal(t, int64(1), m.Timeouts)
			assert.Zero(t, m.Failures)
		})
	})
	t.Run("caller cancelled", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cl := threeNodes(t)
			for _, id := range []string{A, B, C} {
				require.NoError(t, cl.Replica(id).SetFault(replicatest.Unreachable()))
			}
			c, d, log := refusingSetup(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER")}, wrapRefusing)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(ms(10), cancel)

			res, err := c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			require.ErrorIs(t, err, context.Canceled)
			settle()
			require.Len(t, res.Trace.Requests, 2)
			for _, rt := range res.Trace.Requests {
				assert.Equal(t, coordinator.Pending, rt.Outcome, rt.Endpoint)
				assertCutShort(t, cl, d, log, rt.Endpoint, context.Canceled)
				assert.Zero(t, replicaMetrics(c, rt.Endpoint).Misses, rt.Endpoint)
			}
			m := c.Metrics().Total
			assert.Equal(t, int64(1), m.Cancelled)
			assert.Zero(t, m.Failures)
		})
	})
	for _, closed := range []bool{false, true} {
		name, want := "repair write timeout", context.DeadlineExceeded
		if closed {
			name, want = "repair write at Close", context.Canceled
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), A))
				opts := policy(t, "NEVER")
				opts.ReadRepair = repair.Async
				c, d, log := refusingSetup(t, cl, coordinator.Config{DefaultTable: opts, ReadTimeout: ms(50)},
					func(r replica.Replica) replica.Replica { return refusesWhenCancelled{Replica: r, hangWrites: true} })

				res, err := readAt(c, tbl, consistency.Quorum)
				require.NoError(t, err)
				require.Equal(t, []string{B}, res.Trace.Repaired)
				if closed {
					time.Sleep(ms(10))
					require.NoError(t, c.Close())
				} else {
					time.Sleep(ms(60)) // the write times out at 50 ms
				}
				settle()
				errs := log.of(B)
				require.NotEmpty(t, errs)
				write := errs[len(errs)-1] // after B's reads
				assert.ErrorIs(t, write, want)
				assert.False(t, replica.IsConnectionFailure(write), write)
				assert.True(t, d.IsAlive(endpoint(cl, B)), "B is not convicted for a write the coordinator cut short")
			})
		})
	}
}

// failsAtOnce is a replica whose connection is refused: every read fails
// at once, before anything could cancel it.
type failsAtOnce struct{ replica.Replica }

func (failsAtOnce) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{}, errStreamClosed
}

// A request that failed before the coordinator cut anything short keeps
// its error, though the read, failed by it, cancelled its other request
// just after: the failure detector convicts its replica, the snitch counts
// a miss, and the trace and the read's error show the failure, while the
// other request, cut short, is none.
func TestAFailureBeforeTheReadEndedKeepsItsError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		c, d, log := refusingSetup(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER")},
			func(r replica.Replica) replica.Replica {
				if r.Endpoint().ID == A {
					return failsAtOnce{r}
				}
				return wrapRefusing(r)
			})

		res, err := readAt(c, tbl, consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, 1, failure.Failures)
		assert.ErrorIs(t, failure.Reasons[A], replica.ErrConnectionFailed)
		settle()
		require.Len(t, res.Trace.Requests, 2)
		require.Equal(t, A, res.Trace.Requests[0].Endpoint)
		assert.Equal(t, coordinator.Failed, res.Trace.Requests[0].Outcome)
		assert.True(t, errors.Is(res.Trace.Requests[0].Err, replica.ErrConnectionFailed), res.Trace.Requests[0].Err)
		require.Equal(t, []error{errStreamClosed}, log.of(A))
		assert.False(t, d.IsAlive(endpoint(cl, A)), "A's refusal convicts it")
		assert.Equal(t, int64(1), replicaMetrics(c, A).Misses)
		b := res.Trace.Requests[1].Endpoint
		assert.Equal(t, coordinator.Pending, res.Trace.Requests[1].Outcome)
		assertCutShort(t, cl, d, log, b, context.Canceled)
		assert.Zero(t, replicaMetrics(c, b).Misses)
	})
}
