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

// A ReadMany without a NowInSec reads every key at one time, taken when it
// starts, as Cassandra's IN query reads its partitions at the statement's
// nowInSec: two rows expiring at the same second both show, or neither,
// though the second key's read starts a second after the first's.
func TestReadManyReadsEveryKeyAtOneTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(time.Second)})
		}
		start := time.Now().Unix()
		for _, k := range []string{"a", "b"} {
			p := replica.NewPartition(k, replica.NewRow("1", replica.Expiring("v", "x", 10, 60, start+1)))
			require.NoError(t, e.cluster.Seed(tbl, p))
		}
		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"},
			Level: consistency.One, Concurrency: 1})
		require.NoError(t, err)
		for _, r := range res {
			require.NoError(t, r.Err)
			assert.Equal(t, start, r.Result.NowInSec, "key %s", r.Key)
			assert.Len(t, r.Result.Visible().Rows, 1, "key %s", r.Key)
		}
	})
}
