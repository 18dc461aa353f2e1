package coordinator_test

import (
	"context"
	"strconv"
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

// Ports of Cassandra's DigestResolverTest (apache/cassandra,
// test/unit/org/apache/cassandra/service/reads/DigestResolverTest.java)
// through the coordinator: A answers data, B a digest. Its row(ts, c, v) is
// a row c with c1 = v and liveness at ts, as SimpleBuilders.RowBuilder
// makes it. The transient-replica cases (agreeingTransient,
// transientResponse, transientResponseData) have no counterpart: readpath
// has no transient replication.

func drRow(ts int64, c, v int) replica.Row {
	return replica.NewRow(strconv.Itoa(c), replica.Live("c1", strconv.Itoa(v), ts)).WithLiveness(replica.Inserted(ts))
}

// drPair is newEnv with the key's replicas holding a, b and a (SeedOn
// replaces what newEnv seeded).
func drPair(t *testing.T, a, b replica.Partition, cfg coordinator.Config) *env {
	t.Helper()
	e := newEnv(t, cfg)
	require.NoError(t, e.cluster.SeedOn(tbl, a, A, C))
	require.NoError(t, e.cluster.SeedOn(tbl, b, B))
	return e
}

// noRepairNeeded: equal answers match and the data is the answer.
func TestDigestResolverNoRepairNeeded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := replica.NewPartition(key, drRow(1000, 4, 4), drRow(1000, 5, 5))
		e := drPair(t, p, p, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.False(t, res.Trace.DigestMismatch)
		assert.Empty(t, res.Trace.Repaired)
		assert.True(t, p.Visible(res.NowInSec).Equal(res.Visible()), "%v", res.Visible())
	})
}

// digestMismatch: rows 4 and 5 at 1000 against row 4 = 5 at 2000 do not
// match; the read then reconciles them (what DataResolverTest checks).
func TestDigestResolverDigestMismatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := replica.NewPartition(key, drRow(1000, 4, 4), drRow(1000, 5, 5))
		b := replica.NewPartition(key, drRow(2000, 4, 5))
		e := drPair(t, a, b, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Trace.DigestMismatch)
		want, err := repair.Merge(a, b)
		require.NoError(t, err)
		assert.True(t, want.Visible(res.NowInSec).Equal(res.Visible()), "%v", res.Visible())
		assert.ElementsMatch(t, []string{A, B}, res.Trace.Repaired)
	})
}

// multiThreadedNoRepairNeededReadCallback (CASSANDRA-16807): at ONE, two
// equal answers arriving together, a data answer and a digest, must never
// leave the read without data nor call a mismatch. Here ALWAYS sends both
// and both answer at the same virtual instant, 500 times, a second apart
// so that the hedge budget allows each its extra request.
func TestDigestResolverConcurrentMatchingAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := replica.NewPartition(key, drRow(1000, 4, 4), drRow(1000, 5, 5))
		e := drPair(t, p, p, coordinator.Config{DefaultTable: policy(t, "ALWAYS")})
		for i := range 500 {
			res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			require.NoError(t, err)
			require.False(t, res.Trace.DigestMismatch, "read %d", i)
			require.True(t, p.Visible(res.NowInSec).Equal(res.Visible()), "read %d: %v", i, res.Visible())
			settle()
			time.Sleep(time.Second) // the hedge budget's floor: one extra request a second
		}
		assert.EqualValues(t, 1000, e.totalReads(), "two requests a read")
	})
}
