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
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// hangsReadingKey ignores its context and answers reads of one key only
// after an hour; every other read and write behaves.
type hangsReadingKey struct {
	replica.Replica
	key string
}

func (r hangsReadingKey) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if cmd.Key == r.key {
		time.Sleep(time.Hour)
	}
	return r.Replica.Read(ctx, cmd)
}

// slow is a key whose reads one replica of newTwoDCsHanging hangs on.
const slow = "slow"

// newTwoDCsHanging is newTwoDCs, but for ids, which ignore their context
// and answer reads of slow only after an hour (see readCappingMidway).
func newTwoDCsHanging(t *testing.T, cfg coordinator.Config, ids ...string) *env {
	t.Helper()
	return newHangingOn(t, twoDCsCluster(t), cfg, ids...)
}

// newHangingOn is newTwoDCsHanging over cl, whose replicas of key hold
// slow too.
func newHangingOn(t *testing.T, cl *replicatest.Cluster, cfg coordinator.Config, ids ...string) *env {
	t.Helper()
	reps, _, err := cl.Locate(tbl, key)
	require.NoError(t, err)
	pinned := make([]string, len(reps))
	for i, r := range reps {
		pinned[i] = r.Endpoint().ID
	}
	require.NoError(t, cl.Pin(tbl, slow, pinned...))
	hang := map[string]bool{}
	for _, id := range ids {
		hang[id] = true
	}
	cfg.LocalDatacenter = "dc1"
	cfg.Locator = wrapIDs(cl, hang, func(r replica.Replica) replica.Replica { return hangsReadingKey{r, slow} })
	return newEnvOn(t, cl, cfg)
}

// readCappingMidway reads key at level while another read asks for slow
// at ALL and gives up at at, leaving the hanging replica at a cap of 1
// abandoned request while the read under test goes on.
func readCappingMidway(t *testing.T, e *env, level consistency.Level, at time.Duration) (coordinator.Result, error) {
	t.Helper()
	type out struct {
		res coordinator.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
		done <- out{res, err}
	}()
	synctest.Wait() // planned and sent before the other read exists

	ctx, cancel := context.WithTimeout(context.Background(), at)
	defer cancel()
	_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: slow, Level: consistency.All})
	var timeout *consistency.ReadTimeoutError
	require.ErrorAs(t, err, &timeout)
	o := <-done
	return o.res, o.err
}

// At EACH_QUORUM over dc1:3, dc2:3 a stale dc2 replica (X, d2n1) answers
// the read but its BLOCKING repair write is refused for its backlog
// (another read gave up on a request to it in between). dc2 then cannot
// make its quorum of holders without a write to its uncontacted replica Z
// (d2n3), and the additional write that stands in for the refused one goes
// there. It went to the first uncontacted replica in the plan's order,
// dc1's, which cannot help dc2, and the read failed with ReadFailureError
// although Z was live and able to take it (found by review).
func TestEachQuorumStandInWriteGoesToTheShortDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opts := policy(t, "NEVER")
		opts.ReadRepair = repair.Blocking
		opts.AdditionalWritePolicy = policy(t, "50ms").SpeculativeRetry
		e := newTwoDCsHanging(t, coordinator.Config{ReadTimeout: ms(100), MaxAbandonedPerReplica: 1,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}, DefaultTable: opts}, d2n1)
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1, d1n2, d1n3, d2n2, d2n3)) // X is stale

		// The read under test: first round at 0 ms (a data; b, X, y
		// digests), reconcile reads at 1 ms, repair writes at 2 ms; X
		// reaches its cap at 1.5 ms, just before the repair write to it.
		res, err := readCappingMidway(t, e, consistency.EachQuorum, ms(1.5))
		tr := res.Trace
		require.Equal(t, 1, refusedIn(tr), "the repair write to X is refused for its backlog: %v", tr)
		assert.Contains(t, additionalTargets(tr), d2n3,
			"the stand-in write must go to dc2's uncontacted replica, the only one that can complete dc2's quorum")
		assert.NoError(t, err, "Z was live: dc2 could reach its quorum of holders")

		time.Sleep(2 * time.Hour) // the hung read returns
		settle()
	})
}
