package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// riRead is an attempt reading key through a coordinator.
func riRead(ctx context.Context, c *coordinator.Coordinator, l consistency.Level) (coordinator.Result, error) {
	return c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: l})
}

// riDowngrader is an executor judging with DowngradingPolicy, recording the
// downgrades it reports.
func riDowngrader(t *testing.T, cfg retry.Config) (*retry.Executor, *[]retry.Downgrade) {
	t.Helper()
	var seen []retry.Downgrade
	cfg.Policy = retry.DowngradingPolicy{}
	cfg.OnDowngrade = func(d retry.Downgrade) { seen = append(seen, d) }
	ex, err := retry.NewExecutor(cfg)
	require.NoError(t, err)
	return ex, &seen
}

// A QUORUM read whose coordinator sees only one replica alive fails
// unavailable with Alive 1, before sending anything; DowngradingPolicy
// retries at ONE, which the coordinator accepts and serves.
func TestRetryOverReadsDowngradeFromUnavailableIsServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SetAlive(B, false))
		require.NoError(t, e.cluster.SetAlive(C, false))
		ex, seen := riDowngrader(t, retry.Config{})
		s := retry.Statement{Level: consistency.Quorum}
		res, err := retry.Execute(context.Background(), ex, s, []*coordinator.Coordinator{e.c}, riRead)
		require.NoError(t, err)
		assert.Equal(t, consistency.One, res.Level)
		assert.True(t, res.Downgraded())
		require.Equal(t, 2, res.Attempts.Len())
		assert.Equal(t, retry.CauseUnavailable, res.Attempts.At(0).Cause)
		require.Len(t, *seen, 1)
		assert.Equal(t, retry.Downgrade{Requested: consistency.Quorum, From: consistency.Quorum,
			To: consistency.One, Cause: retry.CauseUnavailable, Target: 0, Retry: 1}, (*seen)[0])
		assert.Equal(t, "v1", string(res.Value.Partition.Rows[0].Cells[0].Value))
	})
}

// EACH_QUORUM with a whole datacenter marked down: the coordinator reports
// dc2 with 0 alive; the policy still retries at ONE (JAVA-1005), which the
// coordinator serves from dc1.
func TestRetryOverReadsEachQuorumUnavailableDowngradesToOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{})
		for _, id := range []string{d2n1, d2n2, d2n3} {
			require.NoError(t, e.cluster.SetAlive(id, false))
		}
		ex, _ := riDowngrader(t, retry.Config{})
		res, err := retry.Execute(context.Background(), ex, retry.Statement{Level: consistency.EachQuorum},
			[]*coordinator.Coordinator{e.c}, riRead)
		require.NoError(t, err)
		var un *consistency.UnavailableError
		require.ErrorAs(t, res.Attempts.At(0).Err, &un)
		assert.Equal(t, "dc2", un.Datacenter)
		assert.Equal(t, 0, un.Alive)
		assert.Equal(t, consistency.One, res.Level)
	})
}

// EACH_QUORUM timing out on an unreachable half of dc2 reports 3 of 4
// (two in dc1, one in dc2): the policy retries at THREE, which the
// coordinator serves from the three replicas that answer.
func TestRetryOverReadsEachQuorumTimeoutDowngradesToAServableLevel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t), ReadTimeout: ms(50)})
		require.NoError(t, e.replica(d2n1).SetFault(replicatest.Unreachable()))
		require.NoError(t, e.replica(d2n2).SetFault(replicatest.Unreachable()))
		ex, seen := riDowngrader(t, retry.Config{})
		res, err := retry.Execute(context.Background(), ex, retry.Statement{Level: consistency.EachQuorum},
			[]*coordinator.Coordinator{e.c}, riRead)
		require.NoError(t, err)
		var rt *consistency.ReadTimeoutError
		require.ErrorAs(t, res.Attempts.At(0).Err, &rt)
		assert.Equal(t, 3, rt.Received)
		assert.Equal(t, consistency.Three, res.Level)
		require.Len(t, *seen, 1)
		assert.Equal(t, retry.CauseReadTimeout, (*seen)[0].Cause)
	})
}

// A BLOCKING repair that times out reports data present and the one
// up-to-date replica of two (README: "readpath's [figures] make it retry
// at the level the holders reach"): DowngradingPolicy retries at ONE, the
// executor keeps it on the same coordinator, and the retry returns the
// newest version. DefaultPolicy, seeing too few answers, rethrows.
func TestRetryOverReadsBlockingRepairTimeoutDowngrades(t *testing.T) {
	for _, c := range []struct {
		name      string
		policy    retry.Policy
		wantLevel consistency.Level
		wantErr   error
	}{
		{"downgrading", retry.DowngradingPolicy{}, consistency.One, nil},
		{"default", retry.DefaultPolicy{}, consistency.Quorum, retry.ErrRethrown},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e, _ := newStaleEnv(t, repair.Blocking)
				never, _ := latency.ParseSpeculativeRetry("NEVER")
				e.c.SetTableOptions(tbl, coordinator.TableOptions{ReadRepair: repair.Blocking, AdditionalWritePolicy: never})
				e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
					Pauses: []replicatest.Window{{Start: ms(2), End: ms(100_000)}}})
				ex, err := retry.NewExecutor(retry.Config{Policy: c.policy})
				require.NoError(t, err)
				res, err := retry.Execute(context.Background(), ex, retry.Statement{Level: consistency.Quorum},
					[]*coordinator.Coordinator{e.c}, riRead)
				var rt *consistency.ReadTimeoutError
				require.ErrorAs(t, res.Attempts.At(0).Err, &rt)
				assert.True(t, rt.DataPresent)
				assert.Equal(t, 1, rt.Received)
				if c.wantErr != nil {
					require.ErrorIs(t, err, c.wantErr)
					assert.Equal(t, 1, res.Attempts.Len())
					return
				}
				require.NoError(t, err)
				assert.Equal(t, c.wantLevel, res.Level)
				assert.Equal(t, 0, res.Attempts.At(1).Target, "RetrySame")
				assert.Equal(t, "v2", string(res.Value.Partition.Rows[0].Cells[0].Value))
			})
		})
	}
}

// A read failure, from a failed BLOCKING repair write, is an error
// response: judged only for an idempotent statement, and then rethrown by
// DowngradingPolicy and DefaultPolicy alike (the Java driver rethrows a
// ReadFailureException from onErrorResponse).
func TestRetryOverReadsRepairWriteFailureIsRethrown(t *testing.T) {
	for _, p := range []retry.Policy{retry.DowngradingPolicy{}, retry.DefaultPolicy{}} {
		for _, idem := range []retry.Idempotence{retry.Idempotent, retry.NotIdempotent} {
			synctest.Test(t, func(t *testing.T) {
				c := repairFailingCoordinator(t, B)
				ex, err := retry.NewExecutor(retry.Config{Policy: p})
				require.NoError(t, err)
				s := retry.Statement{Level: consistency.All, Idempotent: idem}
				_, err = retry.Execute(context.Background(), ex, s, []*coordinator.Coordinator{c, c}, riRead)
				var rf *consistency.ReadFailureError
				require.ErrorAs(t, err, &rf)
				var rw *coordinator.RepairWriteError
				require.ErrorAs(t, err, &rw)
				want := retry.ErrRethrown
				if idem == retry.NotIdempotent {
					want = retry.ErrNotIdempotent
				}
				var xe *retry.ExecutionError
				require.ErrorAs(t, err, &xe)
				assert.ErrorIs(t, xe.Reason, want)
				assert.Equal(t, retry.CauseErrorResponse, xe.Attempts.At(0).Cause)
				assert.Equal(t, 1, xe.Attempts.Len())
			})
		}
	}
}
