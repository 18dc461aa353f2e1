package coordinator_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// A fixed sequence of reads, in virtual time, pins the rendering of
// Metrics and of a Trace.
func TestMetricsAndTraceStrings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms"), LocalDatacenter: "dc1"})
		require.NoError(t, e.c.SetTableOptions("other", policy(t, "NEVER")))
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: 0, End: ms(80)}}})
		e.behave(t, C, constant(ms(2)))
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		settle()
		golden(t, "trace.golden", res.Trace.String()+"\n")

		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B))
		for _, l := range []consistency.Level{consistency.One, consistency.LocalQuorum, consistency.All} {
			_, _, err = e.read(l)
			require.NoError(t, err)
			settle() // the losers' times reach the snitch before the next read
		}
		require.NoError(t, e.cluster.SetAlive(C, false))
		require.NoError(t, e.cluster.SetAlive(B, false))
		_, _, err = e.read(consistency.Quorum)
		require.Error(t, err)
		golden(t, "metrics.golden", e.c.Metrics().String())
	})
}
