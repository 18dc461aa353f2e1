package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// EACH_QUORUM with a whole datacenter down: unavailable before anything is
// sent, naming that datacenter with its own quorum and 0 alive
// (ReplicaPlans.assureSufficientLiveReplicas, EACH_QUORUM branch).
func TestEachQuorumWholeDatacenterDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{})
		for _, id := range []string{d2n1, d2n2, d2n3} {
			require.NoError(t, e.cluster.SetAlive(id, false))
		}
		_, took, err := e.read(consistency.EachQuorum)
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.EachQuorum, Required: 2, Alive: 0, Datacenter: "dc2"}, *u)
		assert.Zero(t, took)
		assert.Zero(t, e.totalReads())
		// QUORUM (4 of 6) is unavailable too, counted over every datacenter.
		_, _, err = e.read(consistency.Quorum)
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.Quorum, Required: 4, Alive: 3}, *u)
		// LOCAL_QUORUM in dc1 does not care.
		_, _, err = e.read(consistency.LocalQuorum)
		require.NoError(t, err)
	})
}

// LOCAL_QUORUM over a local RF of 2 needs both local replicas; one down is
// unavailable with the local numbers, though dc2 has three live replicas.
func TestLocalQuorumLocalRF2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := pinnedCluster(t,
			[]replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 2}, {Name: "dc2", Racks: 3, Nodes: 3}},
			consistency.NetworkTopology(map[string]int{"dc1": 2, "dc2": 3}),
			"dc1-r1-n1", "dc1-r2-n2", d2n1, d2n2, d2n3)
		e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "NEVER")})
		res, _, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.Equal(t, 2, res.Trace.BlockFor)

		require.NoError(t, cl.SetAlive("dc1-r2-n2", false))
		_, _, err = e.read(consistency.LocalQuorum)
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.LocalQuorum, Required: 2, Alive: 1, Datacenter: "dc1"}, *u)
	})
}

// LOCAL_QUORUM over a local RF of 1 is blockFor 1; the local replica
// failing fails the read with local numbers, and no remote replica is
// asked (candidates are DC-local for a DC-local level).
func TestLocalQuorumLocalRF1Failure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := pinnedCluster(t,
			[]replicatest.Datacenter{{Name: "dc1", Racks: 1, Nodes: 1}, {Name: "dc2", Racks: 3, Nodes: 3}},
			consistency.NetworkTopology(map[string]int{"dc1": 1, "dc2": 3}),
			"dc1-r1-n1", d2n1, d2n2, d2n3)
		e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "ALWAYS")})
		require.NoError(t, e.replica("dc1-r1-n1").SetFault(replicatest.ErrorAfter(ms(2), nil)))
		_, took, err := e.read(consistency.LocalQuorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f)
		assert.Equal(t, ms(2), took)
		assert.Equal(t, consistency.LocalQuorum, f.Level)
		assert.Equal(t, 1, f.BlockFor)
		assert.Equal(t, 0, f.Received)
		assert.Equal(t, 1, f.Failures)
		assert.False(t, f.DataPresent)
		assert.Len(t, f.Reasons, 1)
		assert.ErrorIs(t, err, replicatest.ErrInjected)
		settle()
		for _, id := range []string{d2n1, d2n2, d2n3} {
			assert.Zero(t, e.stats(id).Reads, id)
		}
	})
}

// A coordinator in a datacenter with RF 0: LOCAL_QUORUM needs 1 (0/2+1)
// there, and none is alive; the error is still an UnavailableError.
func TestLocalQuorumFromDatacenterWithRF0(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := pinnedCluster(t,
			[]replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
			consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 0}),
			d1n1, d1n2, d1n3)
		e := newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc2"})
		for _, l := range []consistency.Level{consistency.LocalQuorum, consistency.LocalOne} {
			_, _, err := e.read(l)
			var u *consistency.UnavailableError
			require.ErrorAs(t, err, &u, l.String())
			assert.Equal(t, consistency.UnavailableError{Level: l, Required: 1, Alive: 0, Datacenter: "dc2"}, *u)
		}
		// EACH_QUORUM leaves the RF-0 datacenter out.
		res, _, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.Equal(t, 2, res.Trace.BlockFor)
		assert.Zero(t, e.totalReads()-2)
	})
}

// An answer that arrives after the deadline is not counted.
func TestAnswerAfterDeadlineNotCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(60)), Fault: replicatest.IgnoresContext()})
		_, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(50), took)
		assert.Equal(t, consistency.ReadTimeoutError{Level: consistency.Quorum, BlockFor: 2, Received: 1, DataPresent: true,
			Cause: timeout.Cause}, *timeout)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, context.Canceled)
		time.Sleep(ms(20)) // let B return
	})
}

// Without speculation, a digest replica failing while the third replica
// is never asked leaves blockFor unreachable: the read fails at once with
// Cassandra's numbers (blockFor 2 + 1 failure > 2 contacts).
func TestDigestFailureFailsFastWithoutHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(ms(2), nil)))
		_, took, err := e.read(consistency.Quorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f)
		assert.Equal(t, ms(2), took)
		assert.Equal(t, 2, f.BlockFor)
		assert.Equal(t, 1, f.Received)
		assert.Equal(t, 1, f.Failures)
		assert.True(t, f.DataPresent)
		assert.Len(t, f.Reasons, 1)
		assert.ErrorIs(t, f.Reasons[B], replicatest.ErrInjected)
		var rt *consistency.ReadTimeoutError
		assert.False(t, errors.As(err, &rt))
		assert.Zero(t, e.stats(C).Reads)
	})
}

// Under ALWAYS at ONE, both data requests failing fail the read with two
// failures, one reason per endpoint.
func TestFailuresCountedPerEndpoint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS")})
		require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(ms(1), nil)))
		require.NoError(t, e.replica(B).SetFault(replicatest.Down()))
		res, _, err := e.read(consistency.One)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f, "%v", err)
		assert.Equal(t, 1, f.BlockFor)
		assert.Equal(t, 0, f.Received)
		assert.Equal(t, 2, f.Failures)
		assert.Len(t, f.Reasons, f.Failures)
		assert.ErrorIs(t, err, replicatest.ErrInjected)
		assert.ErrorIs(t, err, replicatest.ErrDown)
		assert.ErrorIs(t, err, replica.ErrConnectionFailed)
		assert.Equal(t, 2, len(res.Trace.Requests))
	})
}

// A panicking replica's failure is a *PanicError visible through the
// ReadFailureError to errors.As, and its value to errors.Is.
func TestPanicReasonVisible(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.replica(A).SetFault(replicatest.Panics()))
		_, _, err := e.read(consistency.Quorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f)
		var p *coordinator.PanicError
		require.ErrorAs(t, err, &p)
		assert.Equal(t, A, p.Endpoint.ID)
		assert.ErrorIs(t, err, replicatest.ErrInjectedPanic)
		assert.False(t, f.DataPresent)
		assert.Equal(t, int64(1), e.c.Metrics().Total.Failures)
	})
}

// A caller's cancellation during the reconcile round is no timeout.
func TestCancelDuringReconcileIsNotATimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		// B answers its digest at 1 ms, then stalls its data read.
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(1.5), End: ms(60_000)}}})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(10), cancel)
		res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.True(t, res.Trace.DigestMismatch)
		assert.ErrorIs(t, err, context.Canceled)
		var rt *consistency.ReadTimeoutError
		assert.False(t, errors.As(err, &rt), "%v", err)
		var rf *consistency.ReadFailureError
		assert.False(t, errors.As(err, &rf), "%v", err)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.Cancelled)
		assert.Zero(t, m.Timeouts)
		assert.Zero(t, m.Failures)
	})
}

// A caller's cancellation while a replica failure leaves the round
// unreachable is still a cancellation, whichever the read sees first.
func TestCancelWithConcurrentFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		e.behave(t, A, constant(ms(100)))
		// B fails exactly when the caller cancels.
		require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(ms(10), nil)))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(ms(10), cancel)
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var rt *consistency.ReadTimeoutError
		assert.False(t, errors.As(err, &rt), "%v", err)
		// Either a failure (B's error came first) or a cancellation.
		var rf *consistency.ReadFailureError
		assert.True(t, errors.As(err, &rf) || errors.Is(err, context.Canceled), "%v", err)
	})
}

// Every level a read cannot use is an unsupported level:
// consistency.ErrUnsupportedLevel says it is "returned, wrapped, when a
// level cannot be used for an operation, such as reading at ANY", and
// ValidateForRead returns it. SERIAL and LOCAL_SERIAL need a Paxos round
// readpath does not run. Read and ReadMany say so alike.
func TestReadAtAnyIsUnsupportedLevel(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: instantCluster(t)})
	require.NoError(t, err)
	defer c.Close()
	for _, l := range []consistency.Level{consistency.Any, consistency.Serial, consistency.LocalSerial, 42} {
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: l})
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, "%v", l)
		assert.ErrorIs(t, err, consistency.ErrUnsupportedLevel, "%v", err)
		_, err = c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: l})
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, "%v", l)
		assert.ErrorIs(t, err, consistency.ErrUnsupportedLevel, "%v", err)
	}
}

// The retry policies on the errors the coordinator returns, at the
// boundaries the Java driver draws.
func TestPoliciesOnCoordinatorErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}

		// received == blockFor, no data: digest-first whose data replica stalls.
		cfg := digestFirst(t, "NEVER")
		cfg.ReadTimeout = ms(50)
		e := newEnv(t, cfg)
		for _, id := range []string{A, B, C} {
			e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
				Pauses: []replicatest.Window{{Start: ms(0.5), End: ms(60_000)}}})
		}
		_, _, err := e.read(consistency.Quorum)
		var rt *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &rt)
		require.Equal(t, rt.BlockFor, rt.Received)
		require.False(t, rt.DataPresent)
		assert.Equal(t, retry.Verdict{Decision: retry.RetrySame, Level: consistency.Quorum}, retry.DefaultPolicy{}.OnReadTimeout(s, rt, 0))
		assert.Equal(t, retry.Verdict{Decision: retry.Rethrow}, retry.DefaultPolicy{}.OnReadTimeout(s, rt, 1))
		assert.Equal(t, retry.Verdict{Decision: retry.RetrySame, Level: consistency.Quorum}, retry.DowngradingPolicy{}.OnReadTimeout(s, rt, 0))
		assert.Equal(t, retry.CauseReadTimeout, retry.Classify(err))
		time.Sleep(time.Minute)
	})
}

// EACH_QUORUM under digest-first merges five versions (dc1 answers all
// three digests before dc2's second), so short-read protection asks four
// replicas for more and needs all five versions complete. When one
// continuation stalls, the timeout must still report fewer answers than
// BlockFor, counted per datacenter as every other EACH_QUORUM round counts
// them (TestEachQuorumTimeoutCountsPerDatacenter): "received only 4
// responses (EACH_QUORUM, 4 required)" is a contradiction.
func TestEachQuorumShortReadTimeoutCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t), ReadTimeout: ms(100)})
		all := seeded(t, []string{"1", "2"})
		require.NoError(t, e.cluster.SeedOn(tbl, all, twoDCs...))
		require.NoError(t, e.cluster.SeedOn(tbl, seeded(t, []string{"1", "2"}, del("1", 20)), d1n1))
		for id, lat := range map[string]float64{d1n1: 1, d1n2: 1.1, d1n3: 1.2, d2n1: 2, d2n2: 2.1, d2n3: 50} {
			e.behave(t, id, constant(ms(lat)))
		}
		// d2n2's short-read request (its third, after 5 ms) stalls.
		e.behave(t, d2n2, replicatest.Behavior{Latency: replicatest.Constant(ms(2.1)),
			Pauses: []replicatest.Window{{Start: ms(5), End: ms(60_000)}}})

		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.EachQuorum,
			Query: replica.Query{Limit: 1}, NowInSec: now})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "%v\n%v", err, res.Trace)

		assert.Equal(t, 4, timeout.BlockFor)
		assert.True(t, timeout.DataPresent)
		assert.Less(t, timeout.Received, timeout.BlockFor, "%v\n%v", err, res.Trace)
		time.Sleep(time.Minute)
	})
}

// The ReadFailure variant of the short-read round at EACH_QUORUM: d2n2's
// continuation fails instead of stalling. The failure's Received must
// count per datacenter and stay below BlockFor, as the round's other
// errors do.
func TestEachQuorumShortReadFailureCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t), ReadTimeout: ms(100)})
		require.NoError(t, e.cluster.SeedOn(tbl, seeded(t, []string{"1", "2"}), twoDCs...))
		require.NoError(t, e.cluster.SeedOn(tbl, seeded(t, []string{"1", "2"}, del("1", 20)), d1n1))
		for id, lat := range map[string]float64{d1n1: 1, d1n2: 1.1, d1n3: 1.2, d2n1: 2, d2n2: 2.1, d2n3: 50} {
			e.behave(t, id, constant(ms(lat)))
		}
		// d2n2 answers its digest and its reconcile read, then fails the
		// short-read request, after the others answered theirs.
		locate := wrapping(e.cluster, 6, func(r replica.Replica) replica.Replica {
			if r.Endpoint().ID == d2n2 {
				return &failNth{Replica: r, n: 3, after: ms(5)}
			}
			return r
		})
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster, LocalDatacenter: "dc1",
			DefaultTable: digestFirstOptions(t), ReadTimeout: ms(100)})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.EachQuorum,
			Query: replica.Query{Limit: 1}, NowInSec: now})
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f, "%v\n%v", err, res.Trace)

		assert.Equal(t, 4, f.BlockFor)
		assert.Equal(t, 1, f.Failures)
		assert.Less(t, f.Received, f.BlockFor, "%v\n%v", err, res.Trace)
		time.Sleep(time.Minute)
	})
}

// failNth fails its n-th read (1-based), after a delay, with errInjectedNth.
type failNth struct {
	replica.Replica
	n     int32
	seen  atomic.Int32
	after time.Duration
}

var errInjectedNth = errors.New("injected: n-th read fails")

func (f *failNth) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if f.seen.Add(1) == f.n {
		time.Sleep(f.after)
		return replica.Response{}, errInjectedNth
	}
	return f.Replica.Read(ctx, cmd)
}

// EACH_QUORUM never hedges: a failure in one datacenter fails the read at
// once (blockFor 4 + 1 failure > 4 contacts), naming it.
func TestEachQuorumFailureFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS"), ReadTimeout: ms(50)})
		// Which two dc2 replicas are contacted depends on the snitch: make
		// every one of them fail but the one that is slow to fail.
		for _, id := range []string{d2n1, d2n2, d2n3} {
			require.NoError(t, e.replica(id).SetFault(replicatest.ErrorAfter(ms(3), nil)))
		}
		res, took, err := e.read(consistency.EachQuorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f, "%v", err)
		assert.Equal(t, ms(3), took)
		assert.Equal(t, 4, f.BlockFor)
		assert.Equal(t, 2, f.Received, "dc1's two answers at 1 ms")
		assert.GreaterOrEqual(t, f.Failures, 1)
		assert.Len(t, f.Reasons, f.Failures)
		assert.True(t, f.DataPresent)
		assert.False(t, res.Trace.Hedge.Fired)
		for _, rt := range res.Trace.Requests {
			assert.NotEqual(t, coordinator.PhaseSpeculative, rt.Phase)
		}
	})
}

// A hedge that fails while the data replica is slow, then the data replica
// failing too: two failures, two reasons, and the read fails as soon as
// blockFor is out of reach.
func TestFailedHedgeThenFailedData(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "10ms")})
		require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(ms(20), nil)))
		require.NoError(t, e.replica(C).SetFault(replicatest.ErrorAfter(ms(2), nil)))
		res, took, err := e.read(consistency.Quorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f, "%v", err)
		assert.Equal(t, ms(20), took)
		assert.True(t, res.Trace.Hedge.Fired)
		assert.Equal(t, C, res.Trace.Hedge.To)
		assert.Equal(t, 2, f.BlockFor)
		assert.Equal(t, 1, f.Received)
		assert.Equal(t, 2, f.Failures)
		assert.False(t, f.DataPresent)
		assert.Len(t, f.Reasons, 2)
		assert.Contains(t, f.Reasons, A)
		assert.Contains(t, f.Reasons, C)
	})
}

// The policies at the boundaries, on errors as the coordinator builds them.
func TestPolicyBoundaries(t *testing.T) {
	s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.Idempotent}
	def, down := retry.DefaultPolicy{}, retry.DowngradingPolicy{}
	same := func(l consistency.Level) retry.Verdict { return retry.Verdict{Decision: retry.RetrySame, Level: l} }
	next := func(l consistency.Level) retry.Verdict { return retry.Verdict{Decision: retry.RetryNext, Level: l} }
	rethrow := retry.Verdict{Decision: retry.Rethrow}
	rt := func(l consistency.Level, bf, rcv int, data bool) *consistency.ReadTimeoutError {
		return &consistency.ReadTimeoutError{Level: l, BlockFor: bf, Received: rcv, DataPresent: data}
	}
	// Default: only received >= blockFor without data, once.
	assert.Equal(t, same(consistency.Quorum), def.OnReadTimeout(s, rt(consistency.Quorum, 2, 2, false), 0))
	assert.Equal(t, same(consistency.Quorum), def.OnReadTimeout(s, rt(consistency.Quorum, 2, 3, false), 0))
	assert.Equal(t, rethrow, def.OnReadTimeout(s, rt(consistency.Quorum, 2, 2, true), 0))
	assert.Equal(t, rethrow, def.OnReadTimeout(s, rt(consistency.Quorum, 2, 1, false), 0))
	assert.Equal(t, rethrow, def.OnReadTimeout(s, rt(consistency.Quorum, 2, 2, false), 1))
	// Downgrading.
	assert.Equal(t, same(consistency.One), down.OnReadTimeout(s, rt(consistency.Quorum, 2, 1, true), 0))
	assert.Equal(t, same(consistency.One), down.OnReadTimeout(s, rt(consistency.Quorum, 2, 1, false), 0))
	assert.Equal(t, rethrow, down.OnReadTimeout(s, rt(consistency.Quorum, 2, 0, false), 0))
	assert.Equal(t, same(consistency.Quorum), down.OnReadTimeout(s, rt(consistency.Quorum, 2, 2, false), 0))
	assert.Equal(t, rethrow, down.OnReadTimeout(s, rt(consistency.Quorum, 2, 2, true), 0))
	assert.Equal(t, same(consistency.Three), down.OnReadTimeout(s, rt(consistency.All, 5, 4, true), 0))
	assert.Equal(t, same(consistency.Two), down.OnReadTimeout(s, rt(consistency.All, 3, 2, true), 0))
	se := s
	se.Level = consistency.EachQuorum
	assert.Equal(t, same(consistency.One), down.OnReadTimeout(se, rt(consistency.EachQuorum, 4, 0, false), 0))
	assert.Equal(t, rethrow, down.OnReadTimeout(s, rt(consistency.Quorum, 2, 1, true), 1))
	ss := s
	ss.Level = consistency.Serial
	assert.Equal(t, rethrow, down.OnReadTimeout(ss, rt(consistency.Serial, 2, 1, false), 0))
	// Unavailable.
	un := func(l consistency.Level, req, alive int) *consistency.UnavailableError {
		return &consistency.UnavailableError{Level: l, Required: req, Alive: alive}
	}
	assert.Equal(t, next(consistency.Quorum), def.OnUnavailable(s, un(consistency.Quorum, 2, 0), 0))
	assert.Equal(t, rethrow, def.OnUnavailable(s, un(consistency.Quorum, 2, 0), 1))
	assert.Equal(t, rethrow, down.OnUnavailable(s, un(consistency.Quorum, 2, 0), 0))
	assert.Equal(t, same(consistency.One), down.OnUnavailable(s, un(consistency.Quorum, 2, 1), 0))
	assert.Equal(t, same(consistency.One), down.OnUnavailable(se, un(consistency.EachQuorum, 2, 0), 0))
	assert.Equal(t, same(consistency.Two), down.OnUnavailable(se, un(consistency.EachQuorum, 3, 2), 0))
	assert.Equal(t, next(consistency.Serial), down.OnUnavailable(ss, un(consistency.Serial, 2, 1), 0))
	// A read failure is never retried.
	rf := &consistency.ReadFailureError{Level: consistency.Quorum, BlockFor: 2, Received: 2, Failures: 1}
	assert.Equal(t, rethrow, def.OnErrorResponse(s, rf, 0))
	assert.Equal(t, rethrow, down.OnErrorResponse(s, rf, 0))
	assert.Equal(t, retry.CauseErrorResponse, retry.Classify(fmt.Errorf("read: %w", rf)))
	// A read failure whose reason is a replica's timeout is still a failure.
	rf2 := &consistency.ReadFailureError{Level: consistency.Quorum, BlockFor: 2, Failures: 1,
		Reasons: map[string]error{"n": rt(consistency.One, 1, 0, false)}}
	assert.Equal(t, retry.CauseErrorResponse, retry.Classify(rf2))
	// Write timeouts.
	wt := func(w consistency.WriteType, bf, rcv int) *consistency.WriteTimeoutError {
		return &consistency.WriteTimeoutError{Level: consistency.Quorum, WriteType: w, BlockFor: bf, Received: rcv}
	}
	assert.Equal(t, same(consistency.Quorum), def.OnWriteTimeout(s, wt(consistency.WriteBatchLog, 2, 0), 0))
	assert.Equal(t, rethrow, def.OnWriteTimeout(s, wt(consistency.WriteSimple, 2, 1), 0))
	assert.Equal(t, retry.Verdict{Decision: retry.Ignore, Level: consistency.Quorum}, down.OnWriteTimeout(s, wt(consistency.WriteSimple, 2, 1), 0))
	assert.Equal(t, rethrow, down.OnWriteTimeout(s, wt(consistency.WriteSimple, 2, 0), 0))
	assert.Equal(t, same(consistency.One), down.OnWriteTimeout(s, wt(consistency.WriteUnloggedBatch, 2, 1), 0))
	assert.Equal(t, rethrow, down.OnWriteTimeout(s, wt(consistency.WriteUnloggedBatch, 2, 0), 0))
	assert.Equal(t, same(consistency.Quorum), down.OnWriteTimeout(s, wt(consistency.WriteBatchLog, 2, 0), 0))
	for _, w := range []consistency.WriteType{consistency.WriteCounter, consistency.WriteCAS, consistency.WriteView, consistency.WriteCDC} {
		assert.Equal(t, rethrow, down.OnWriteTimeout(s, wt(w, 2, 1), 0), w.String())
	}
}
