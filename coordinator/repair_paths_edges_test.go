package coordinator_test

import (
	"context"
	"errors"
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
)

// The read strategies and read-repair paths: the reconcile round
// and the repair round under failures and timeouts, the data replica
// being the stale one, DigestFirst at ONE and ALL.

var errDataRefused = errors.New("replica: data read refused")

// rvWrap wraps a replica: data reads (not digests) fail or hang, repair
// writes fail or hang, and every mutation is recorded.
type rvWrap struct {
	replica.Replica
	failData, hangData   bool
	failApply, hangApply bool
	log                  *rvLog
}

type rvLog struct {
	mu   sync.Mutex
	sent map[string][]replica.Partition
}

func (l *rvLog) of(id string) []replica.Partition {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]replica.Partition(nil), l.sent[id]...)
}

func (w rvWrap) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if !cmd.DigestOnly {
		if w.failData {
			return replica.Response{}, errDataRefused
		}
		if w.hangData {
			<-ctx.Done()
			return replica.Response{}, ctx.Err()
		}
	}
	return w.Replica.Read(ctx, cmd)
}

func (w rvWrap) Apply(ctx context.Context, m replica.Mutation) error {
	w.log.mu.Lock()
	id := w.Endpoint().ID
	w.log.sent[id] = append(w.log.sent[id], m.Partition)
	w.log.mu.Unlock()
	switch {
	case w.failApply:
		return errApply
	case w.hangApply:
		<-ctx.Done()
		return ctx.Err()
	}
	return w.Replica.Apply(ctx, m)
}

// rvEnv replaces e's coordinator by one with opts over wrapped replicas;
// wraps maps a replica to its wrapper's settings.
func rvEnv(t *testing.T, e *env, opts coordinator.TableOptions, wraps map[string]rvWrap, cfg coordinator.Config) *rvLog {
	t.Helper()
	log := &rvLog{sent: map[string][]replica.Partition{}}
	cfg.DefaultTable = opts
	cfg.Liveness = e.cluster
	cfg.Locator = wrapping(e.cluster, 5, func(r replica.Replica) replica.Replica {
		w := wraps[r.Endpoint().ID]
		w.Replica, w.log = r, log
		return w
	})
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	e.c = c
	return log
}

func rvOpts(t *testing.T, sp, aw string, mode repair.Mode) coordinator.TableOptions {
	t.Helper()
	o := policy(t, sp)
	o.AdditionalWritePolicy = policy(t, aw).SpeculativeRetry
	o.ReadRepair = mode
	return o
}

func valueOn(t *testing.T, e *env, id string) string {
	t.Helper()
	return partitionOf(t, e, id)
}

// The data replica is the stale one: A (asked for data at QUORUM) holds
// v1, B and C v2. The read returns v2, A alone is repaired, and the read
// waits for A's acknowledgement.
func TestRepairDataReplicaIsStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B, C))
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.DigestMismatch)
		assert.Equal(t, []string{A}, res.Trace.Repaired)
		assert.Equal(t, ms(3), took, "digest at 1 ms, B's data at 2 ms, A's ack at 3 ms")
		assert.Equal(t, "v2", valueOn(t, e, A), "repaired before the read returned")
		require.Len(t, log.of(A), 1)
		assert.True(t, log.of(A)[0].Equal(row(key, "v2", 20)))
		assert.Empty(t, log.of(B))
		assert.Empty(t, log.of(C))
		assert.Equal(t, int64(1), e.stats(A).Reads, "A's data answer is reused, not asked again")
	})
}

// The replica that answered the mismatching digest fails its data read,
// with no speculation: the reconcile round cannot reach QUORUM and the
// read fails at once with the reconcile round's counts (Cassandra's
// ReadCallback of the repair round: 1 response, 1 failure, blockFor 2,
// data present).
func TestRepairReconcileReadFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), map[string]rvWrap{B: {failData: true}}, coordinator.Config{})

		res, took, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, 2, failure.BlockFor)
		assert.Equal(t, 1, failure.Received)
		assert.Equal(t, 1, failure.Failures)
		assert.True(t, failure.DataPresent)
		require.Contains(t, failure.Reasons, B)
		assert.ErrorIs(t, failure.Reasons[B], errDataRefused)
		var rw *coordinator.RepairWriteError
		assert.False(t, errors.As(failure.Reasons[B], &rw), "a failed read is not a repair write")
		assert.Equal(t, ms(1), took, "fails as soon as B's data read fails")
		assert.True(t, res.Trace.DigestMismatch)
		settle()
		assert.Zero(t, e.cluster.Stats().Mutations)
		assert.Empty(t, log.of(B))
	})
}

// The same with B's data read hanging: a timeout at the read timeout with
// the reconcile round's counts.
func TestRepairReconcileReadTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), map[string]rvWrap{B: {hangData: true}}, coordinator.Config{})

		_, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, 2, timeout.BlockFor)
		assert.Equal(t, 1, timeout.Received)
		assert.True(t, timeout.DataPresent)
		assert.Equal(t, ms(5000), took)
		settle()
		assert.Zero(t, e.cluster.Stats().Mutations)
	})
}

// B fails its data read after its digest mismatched; the reconcile round
// speculates at once to C, the replica not contacted. A and C agree, so
// nothing is written: B, whose data was not merged, is not repaired (as
// in Cassandra, whose repair plan is the replicas whose data was merged).
func TestRepairReconcileReadFailsSpeculatesToUncontacted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		log := rvEnv(t, e, rvOpts(t, "50ms", "NEVER", repair.Blocking), map[string]rvWrap{B: {failData: true}},
			coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.ReconcileHedge.Fired)
		assert.True(t, res.Trace.ReconcileHedge.Won)
		assert.Equal(t, C, res.Trace.ReconcileHedge.To)
		assert.Equal(t, ms(2), took, "B fails at 1 ms, C answers at 2 ms")
		assert.Empty(t, res.Trace.Repaired)
		settle()
		assert.Empty(t, log.of(B))
		assert.Equal(t, "v1", valueOn(t, e, B))
	})
}

// B fails its data read and C, asked by the reconcile speculation, is
// stale too (C holds v1, A v2): C is repaired and the read waits for it.
func TestRepairReconcileSpeculationTargetIsRepaired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		log := rvEnv(t, e, rvOpts(t, "50ms", "NEVER", repair.Blocking), map[string]rvWrap{B: {failData: true}},
			coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, []string{C}, res.Trace.Repaired)
		assert.Equal(t, ms(3), took)
		assert.Equal(t, "v2", valueOn(t, e, C))
		require.Len(t, log.of(C), 1)
		assert.Empty(t, log.of(B))
	})
}

// A repair write that fails versus one that times out, with additional
// writes off, at QUORUM: a ReadFailureError at once (1 received, 1
// failure, a RepairWriteError reason) versus a ReadTimeoutError at the
// read timeout (1 received). Neither returns data.
func TestRepairWriteFailsVersusTimesOut(t *testing.T) {
	t.Run("fails", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			e, _ := newStaleEnv(t, repair.Blocking)
			rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), map[string]rvWrap{B: {failApply: true}}, coordinator.Config{})
			res, took, err := e.read(consistency.Quorum)
			var failure *consistency.ReadFailureError
			require.ErrorAs(t, err, &failure)
			assert.Equal(t, 2, failure.BlockFor)
			assert.Equal(t, 1, failure.Received)
			assert.Equal(t, 1, failure.Failures)
			assert.True(t, failure.DataPresent)
			var rw *coordinator.RepairWriteError
			require.ErrorAs(t, failure.Reasons[B], &rw)
			assert.ErrorIs(t, rw, errApply)
			assert.Equal(t, ms(2), took)
			assert.True(t, res.Partition.Equal(replica.Partition{}), "no data beside the error")
			m := e.c.Metrics().Total
			assert.Equal(t, int64(1), m.RepairsFailed)
			assert.Zero(t, m.RepairsTimedOut)
		})
	})
	t.Run("times out", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			e, _ := newStaleEnv(t, repair.Blocking)
			rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), map[string]rvWrap{B: {hangApply: true}}, coordinator.Config{})
			res, took, err := e.read(consistency.Quorum)
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout)
			assert.Equal(t, 2, timeout.BlockFor)
			assert.Equal(t, 1, timeout.Received)
			assert.True(t, timeout.DataPresent)
			assert.Equal(t, ms(5000), took)
			assert.True(t, res.Partition.Equal(replica.Partition{}))
			assert.Equal(t, int64(1), e.c.Metrics().Total.RepairsTimedOut)
		})
	})
}

// A repair write bounded by the caller's deadline, shorter than the read
// timeout: the read ends at the caller's deadline with a timeout.
func TestRepairWriteBoundedByCallerDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), map[string]rvWrap{B: {hangApply: true}}, coordinator.Config{})
		ctx, cancel := context.WithTimeout(context.Background(), ms(100))
		defer cancel()
		start := time.Now()
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, 1, timeout.Received)
		assert.Equal(t, ms(100), time.Since(start))
	})
}

// A repair write that fails is made up for by an additional write to the
// replica the read did not contact, at once: the read succeeds.
func TestRepairWriteFailureMadeUpByAdditionalWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "50ms", repair.Blocking), map[string]rvWrap{B: {failApply: true}},
			coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.AdditionalWrite.Fired)
		assert.True(t, res.Trace.AdditionalWrite.Won)
		assert.Equal(t, ms(3), took)
		require.Len(t, log.of(C), 1, "C gets B's unacknowledged repair")
		assert.True(t, log.of(C)[0].Equal(row(key, "v2", 20)))
	})
}

// DigestFirst at ONE is a plain data read: one request, no digest.
func TestDigestFirstAtOneReadsDataOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		o := rvOpts(t, "NEVER", "NEVER", repair.Blocking)
		o.Strategy = coordinator.DigestFirst
		rvEnv(t, e, o, nil, coordinator.Config{})
		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		require.Len(t, res.Trace.Requests, 1)
		assert.Equal(t, coordinator.KindData, res.Trace.Requests[0].Kind)
		assert.False(t, res.Trace.DigestMismatch)
	})
}

// DigestFirst at ALL with B stale: every replica is asked for a digest,
// the fastest for the data, the mismatch reconciled with data from the
// others, B repaired, and the read returns after B's acknowledgement.
func TestDigestFirstAtAllRepairsTheStaleReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		o := rvOpts(t, "NEVER", "NEVER", repair.Blocking)
		o.Strategy = coordinator.DigestFirst
		log := rvEnv(t, e, o, nil, coordinator.Config{})
		res, took, err := e.read(consistency.All)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.DigestMismatch)
		assert.Equal(t, []string{B}, res.Trace.Repaired)
		assert.Equal(t, ms(4), took, "digests 1 ms, data 2 ms, data of the others 3 ms, ack 4 ms")
		assert.Equal(t, "v2", valueOn(t, e, B))
		require.Len(t, log.of(B), 1)
		assert.Empty(t, log.of(A))
		assert.Empty(t, log.of(C))
	})
}

// DigestFirst at QUORUM where the replica asked for the data, the
// fastest, is the stale one: the others' data is fetched, the data
// replica repaired.
func TestDigestFirstDataReplicaStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B, C))
		e.behave(t, B, constant(ms(2)))
		e.behave(t, C, constant(ms(3)))
		o := rvOpts(t, "NEVER", "NEVER", repair.Blocking)
		o.Strategy = coordinator.DigestFirst
		log := rvEnv(t, e, o, nil, coordinator.Config{})
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.DigestMismatch)
		require.Len(t, res.Trace.Repaired, 1)
		stale := res.Trace.Repaired[0]
		assert.Equal(t, A, stale)
		assert.Equal(t, "v2", valueOn(t, e, A))
		require.Len(t, log.of(A), 1)
	})
}

// A failure in the repair round lists that round's failures and reasons
// only: B failed its reconcile read (a read error), then, as the
// additional write's target, its write; C, the reconcile speculation's
// target, failed its repair write. The error says 2 failures, both repair
// writes, 1 received (A held the result).
func TestRepairRoundFailureListsItsOwnReasons(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		rvEnv(t, e, rvOpts(t, "50ms", "50ms", repair.Blocking),
			map[string]rvWrap{B: {failData: true, failApply: true}, C: {failApply: true}},
			coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})

		res, _, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, 2, failure.BlockFor)
		assert.Equal(t, 1, failure.Received)
		assert.Equal(t, 2, failure.Failures)
		assert.True(t, failure.DataPresent)
		require.Len(t, failure.Reasons, 2)
		for _, id := range []string{B, C} {
			var rw *coordinator.RepairWriteError
			assert.ErrorAs(t, failure.Reasons[id], &rw, "%s's reason is its repair write", id)
		}
		assert.True(t, res.Trace.ReconcileHedge.Fired)
		assert.True(t, res.Trace.AdditionalWrite.Fired)
		assert.Equal(t, B, res.Trace.AdditionalWrite.To)
	})
}

// DigestFirst at QUORUM under NEVER whose data request fails: no one else
// is asked, and the read fails with the digests counted and no data.
func TestDigestFirstDataFailureWithoutSpeculation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		e.behave(t, B, constant(ms(2)))
		e.behave(t, C, constant(ms(3)))
		o := rvOpts(t, "NEVER", "NEVER", repair.Blocking)
		o.Strategy = coordinator.DigestFirst
		rvEnv(t, e, o, map[string]rvWrap{A: {failData: true}}, coordinator.Config{})
		res, took, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, 2, failure.BlockFor)
		assert.Equal(t, 1, failure.Failures)
		assert.False(t, failure.DataPresent)
		assert.Equal(t, ms(2), took, "digests of A and B by 2 ms, A's data read fails at once")
		n := 0
		for _, rt := range res.Trace.Requests {
			if rt.Kind == coordinator.KindData {
				n++
				assert.Equal(t, A, rt.Endpoint)
			}
		}
		assert.Equal(t, 1, n)
		assert.Equal(t, 2, failure.Received, "the two digests: without data, blockFor answers")
	})
}
