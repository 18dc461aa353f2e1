package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// assertNothingSentPastDeadline checks that no request of res went out at
// or after the read's deadline and that id, whose request would have, was
// not charged a timeout: it was given no time.
func assertNothingSentPastDeadline(t *testing.T, c *coordinator.Coordinator, res coordinator.Result, deadline time.Duration, id string) {
	t.Helper()
	for _, rq := range res.Trace.Requests {
		assert.Less(t, rq.Sent, deadline, "%s (%v) sent after the read's deadline\n%s", rq.Endpoint, rq.Kind, res.Trace)
	}
	for _, rm := range c.Metrics().Replicas {
		if rm.Endpoint.ID == id {
			assert.Zero(t, rm.Timeouts, "%s charged a timeout for a request sent past the deadline", id)
			assert.Zero(t, rm.Misses, "%s charged a miss for a request sent past the deadline", id)
		}
	}
}

// slowAtCall returns a coordinator of cl, whose reads time out at 50 ms
// and whose Liveness view takes 60 ms to answer its n-th question.
func slowAtCall(t *testing.T, cl *replicatest.Cluster, n int, o coordinator.TableOptions) *coordinator.Coordinator {
	live := &countedSlowLiveness{Liveness: cl, slowFrom: n, slowTo: n, slow: ms(60)}
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: live, ReadTimeout: ms(50), DefaultTable: o})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// A hedge whose target the Liveness view takes longer than the read's time
// to confirm is not sent: it went out at 70 ms of a 50 ms read, and its
// replica, given no time, was charged a miss and a timeout, so that the
// next reads ranked it last (planning's slow Locator, mended before, is
// the same case). (Found by a review.)
func TestAHedgeWhoseLivenessCheckOutlastsTheReadIsNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		// planning asks the view 3 times; the hedge's check is slow
		c := slowAtCall(t, cl, 4, policy(t, "10ms"))
		require.NoError(t, cl.Replica(B).SetBehavior(constant(ms(100))))
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var te *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &te)
		settle()
		assert.False(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Zero(t, c.Metrics().Total.SpeculativeRetries)
		assertNothingSentPastDeadline(t, c, res, ms(50), C)
		assert.Zero(t, cl.Replica(C).Stats().Reads)
	})
}

// Under ALWAYS the extra request's target is asked of the Liveness view
// once the contacts are out; a view that takes the read's time sends no
// extra request past the deadline, and its draw on the budget is
// refunded. (Found by a review.)
func TestUnderAlwaysAnExtraRequestPastTheDeadlineIsNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		// planning asks the view 3 times, the decision to send an extra
		// once (all fast); the search for its target, once the contacts
		// are out, is slow
		c := slowAtCall(t, cl, 5, policy(t, "ALWAYS"))
		res, _ := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		settle()
		assert.False(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assertNothingSentPastDeadline(t, c, res, ms(50), C)
		assert.Zero(t, cl.Replica(C).Stats().Reads)
		m := c.Metrics().Total
		assert.Zero(t, m.SpeculativeRetries)
		assert.Zero(t, m.SuppressedBudget, "the draw was refunded, not spent")
	})
}

// A BLOCKING repair's additional writes go out only while the read has
// time: a Liveness view that takes it while the writes' targets are
// picked sends none past the deadline. (Found by a review.)
func TestAnAdditionalWritePastTheDeadlineIsNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, _ := staleTrio(t, trio2)
		never, err := latency.ParseSpeculativeRetry("NEVER")
		require.NoError(t, err)
		after5ms, err := latency.ParseSpeculativeRetry("5ms")
		require.NoError(t, err)
		live := &countedSlowLiveness{Liveness: cl}
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: live, ReadTimeout: ms(80),
			DefaultTable: coordinator.TableOptions{SpeculativeRetry: never, ReadRepair: repair.Blocking,
				AdditionalWritePolicy: after5ms}})
		require.NoError(t, err)
		defer c.Close()
		// trio1 (data) and trio2 (digest) disagree; trio2 is repaired from
		// 40 ms, and at 45 ms the additional write's target is asked of
		// the view, which takes 60 ms: past the 80 ms deadline
		live.slowFrom, live.slowTo, live.slow = 4, 4, ms(60)
		res, _ := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
		settle()
		require.NotEmpty(t, res.Trace.Repaired, "%s", res.Trace)
		assert.False(t, res.Trace.AdditionalWrite.Fired, "%s", res.Trace)
		assertNothingSentPastDeadline(t, c, res, ms(80), trio3)
		assert.Zero(t, cl.Replica(trio3).Stats().Mutations)
		assert.Zero(t, c.Metrics().Total.AdditionalWrites)
	})
}

// slowHedgeObserver takes d over each hedge of phase ph it is told of: a
// hook on the read's goroutine, which may outlast the read's time.
func slowHedgeObserver(ph coordinator.Phase, d time.Duration) coordinator.ObserverFuncs {
	return coordinator.ObserverFuncs{Hedge: func(e coordinator.HedgeEvent) {
		if e.Phase == ph {
			time.Sleep(d)
		}
	}}
}

func blockingPolicy(t *testing.T, spec string) coordinator.TableOptions {
	o := policy(t, spec)
	o.ReadRepair = repair.Blocking
	return o
}

// The rounds after the first send nothing past the deadline either: an
// Observer told of the first round's hedge at 5 ms takes 60 ms of a 50 ms
// read, while trio1 (10 ms) and the stale trio2 (20 ms) answer; the
// reconcile round's data request to trio2 went out at 65 ms, and trio2 was
// charged a miss and a timeout. So too after a hedge the Liveness view
// held past the deadline, which c1c9769 stopped but whose reconcile round
// still sent. (Found by a review.)
func TestAReconcileRoundPastTheDeadlineSendsNothing(t *testing.T) {
	for _, slowLiveness := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cl, _ := staleTrio(t, trio2)
			live := &countedSlowLiveness{Liveness: cl}
			cfg := coordinator.Config{Locator: cl, Liveness: live, ReadTimeout: ms(50), DefaultTable: blockingPolicy(t, "5ms")}
			if slowLiveness {
				live.slowFrom, live.slowTo, live.slow = 4, 4, ms(60) // planning asks 3 times; the hedge's check is slow
			} else {
				cfg.Observer = slowHedgeObserver(coordinator.PhaseInitial, ms(60))
			}
			c, err := coordinator.New(cfg)
			require.NoError(t, err)
			defer c.Close()
			res, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
			settle()
			var te *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &te, "slow Liveness %v", slowLiveness)
			assert.True(t, res.Trace.DigestMismatch, "%s", res.Trace)
			assertNothingSentPastDeadline(t, c, res, ms(50), trio2)
		})
	}
}

// Under ALWAYS the two data answers (10 and 20 ms) disagree and meet the
// level, so the stale trio2 is repaired at once; an Observer told of the
// extra request takes 60 ms of the 50 ms read. The BLOCKING write went out
// at 60 ms, given no time; it goes to the ASYNC queue unsent, counted as
// a repair the read's timeout cut off, and is written there. (Found by a
// review.)
func TestABlockingRepairPastTheDeadlineIsQueuedNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, _ := staleTrio(t, trio2)
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: ms(50),
			Observer: slowHedgeObserver(coordinator.PhaseInitial, ms(60)), DefaultTable: blockingPolicy(t, "ALWAYS")})
		require.NoError(t, err)
		defer c.Close()
		res, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
		var te *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, []string{trio2}, res.Trace.Repaired, "%s", res.Trace)
		for _, rq := range res.Trace.Requests {
			assert.Less(t, rq.Sent, ms(50), "%s (%v) sent after the read's deadline\n%s", rq.Endpoint, rq.Kind, res.Trace)
		}
		require.NoError(t, c.DrainRepairs(context.Background()))
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsTimedOut)
		assert.Equal(t, int64(1), m.RepairsAcked)
		p, ok := cl.Replica(trio2).Partition("t", "k")
		require.True(t, ok)
		fresh := replica.NewPartition("k", replica.NewRow("", replica.Live("v", "new", 2000)))
		assert.True(t, p.Equal(fresh), "trio2 repaired by the ASYNC queue: holds %v", p)
	})
}

// dataSlowedBy delays a replica's data reads (not its digests) by d.
type dataSlowedBy struct {
	replica.Replica
	d time.Duration
}

func (s dataSlowedBy) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if !cmd.DigestOnly {
		select {
		case <-time.After(s.d):
		case <-ctx.Done():
			return replica.Response{}, ctx.Err()
		}
	}
	return s.Replica.Read(ctx, cmd)
}

// Nor does short-read protection: the reconcile round's hedge to C at 6
// ms is told to an Observer that takes 60 ms of a 50 ms read; the versions
// come in meanwhile (C at 7 ms, B at 11 ms), and the follow-up requests
// went out at 66 ms, each replica charged a miss and a timeout. The data
// is CASSANDRA-12872's (see dtest_shortread_test.go). (Found by a review.)
func TestAShortReadRoundPastTheDeadlineSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		base := []string{"0", "1", "2", "3"}
		for id, p := range map[string]replica.Partition{
			A: seeded(t, base, del("1", 20), del("2", 20), del("3", 20), ins("5", 20)),
			B: seeded(t, base, ins("4", 20)),
			C: seeded(t, base)} {
			require.NoError(t, cl.SeedOn(tbl, p, id))
		}
		loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			reps, repl, err := cl.Locate(table, k)
			out := make([]replica.Replica, len(reps))
			for i, r := range reps {
				out[i] = r
				if r.Endpoint().ID == B {
					out[i] = dataSlowedBy{r, ms(10)}
				}
			}
			return out, repl, err
		})
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl, ReadTimeout: ms(50),
			Observer: slowHedgeObserver(coordinator.PhaseReconcile, ms(60)), DefaultTable: policy(t, "5ms")})
		require.NoError(t, err)
		defer c.Close()
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum,
			Query: replica.Query{Limit: 2}, NowInSec: now})
		settle()
		var te *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &te)
		assert.True(t, res.Trace.ReconcileHedge.Fired, "%s", res.Trace)
		for _, id := range []string{A, B, C} {
			assertNothingSentPastDeadline(t, c, res, ms(50), id)
		}
	})
}

// failingWrites fails every write at once.
type failingWrites struct{ replica.Replica }

func (failingWrites) Apply(context.Context, replica.Mutation) error { return errors.New("disk full") }

// A BLOCKING repair whose write to trio2 fails at once (40 ms) needs a
// stand-in; a Liveness view that takes 60 ms to confirm its target, past
// the 80 ms deadline, sends none, and the read times out, as the same case
// in the first round does: it failed with a ReadFailureError, counted in
// Failures, once c1c9769 sent nothing there. (Found by a review.)
func TestAStandInWritePastTheDeadlineTimesTheReadOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, _ := staleTrio(t, trio2)
		loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			reps, repl, err := cl.Locate(table, k)
			for i, r := range reps {
				if r.Endpoint().ID == trio2 {
					reps[i] = failingWrites{r}
				}
			}
			return reps, repl, err
		})
		never, err := latency.ParseSpeculativeRetry("NEVER")
		require.NoError(t, err)
		after50ms, err := latency.ParseSpeculativeRetry("50ms")
		require.NoError(t, err)
		live := &countedSlowLiveness{Liveness: cl, slowFrom: 4, slowTo: 4, slow: ms(60)}
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: live, ReadTimeout: ms(80),
			DefaultTable: coordinator.TableOptions{SpeculativeRetry: never, ReadRepair: repair.Blocking,
				AdditionalWritePolicy: after50ms}})
		require.NoError(t, err)
		defer c.Close()
		res, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum})
		settle()
		var te *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &te, "%s", res.Trace)
		assert.False(t, res.Trace.AdditionalWrite.Fired, "%s", res.Trace)
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.Timeouts)
		assert.Zero(t, m.Failures)
	})
}

// A digest-first read whose digests complete their round at the deadline
// (A at 10 ms, B at 50 ms, the read timing out at 50 ms) sends no data
// request then: it did when it took B's digest before its timer's tick
// (which of the two runs first at 50 ms varies, so each of 40 reads runs
// in a bubble of its own), and A was charged a miss and a timeout.
// (Found by a review.)
func TestADigestFirstReadSendsNoDataRequestAtItsDeadline(t *testing.T) {
	for i := 0; i < 40 && !t.Failed(); i++ {
		synctest.Test(t, func(t *testing.T) {
			cl := threeNodes(t)
			o := policy(t, "NEVER")
			o.Strategy = coordinator.DigestFirst
			c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: ms(50),
				Snitch: coordinator.SnitchConfig{Disabled: true}, DefaultTable: o})
			require.NoError(t, err)
			defer c.Close()
			for id, d := range map[string]float64{A: 10, B: 50, C: 100} {
				require.NoError(t, cl.Replica(id).SetBehavior(constant(ms(d))))
			}
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			var te *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &te)
			settle()
			assertNothingSentPastDeadline(t, c, res, ms(50), A)
		})
	}
}

// Under ALWAYS the first round asks the Liveness view whether to send its
// extra request before it sends anything; a caller that cancels while the
// view answers (at 10 ms of its 20) is sent nothing, as one whose deadline
// passed then: the contacts went out at 20 ms, for a read already given
// up. (Found by a review.)
func TestUnderAlwaysACallerThatCancelsWhileTheViewAnswersIsSentNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		live := &countedSlowLiveness{Liveness: cl, slowFrom: 4, slowTo: 4, slow: ms(20)}
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: live, ReadTimeout: ms(50),
			DefaultTable: policy(t, "ALWAYS")})
		require.NoError(t, err)
		defer c.Close()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(10), cancel)
		res, err := c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		cancel()
		settle()
		require.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, res.Trace.Requests)
		assert.Zero(t, cl.Stats().Reads, "replicas were asked after the caller cancelled")
		m := c.Metrics().Total
		assert.Zero(t, m.DataRequests+m.DigestRequests)
		assert.Zero(t, m.SuppressedBudget, "the extra request's draw was refunded")
	})
}
