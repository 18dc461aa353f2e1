package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Ports of cassandra-dtest read_repair_test.py (TestReadRepair,
// TestReadRepairGuarantees) and of consistency_test.py's test_readrepair
// and test_quorum_available_during_failure. A node a test stops reads or
// writes on is marked down here for that read; Cassandra's "SELECT at ONE
// on node n" is a read at ONE with the two other replicas down.

// values reads key at level, reading columns (nil: all), and returns the
// values of a, b (or v1, v2) of the row a client sees, "null" for none.
func (e *env) values(t *testing.T, level consistency.Level, columns []string, names ...string) []string {
	t.Helper()
	res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level,
		Columns: columns, NowInSec: now})
	require.NoError(t, err)
	rows := res.Visible().Rows
	require.Len(t, rows, 1, "%v", res.Partition)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "null"
		for _, c := range rows[0].Cells {
			if c.Column == n {
				out[i] = string(c.Value)
			}
		}
	}
	return out
}

// onNode reads as values does, at ONE from id alone.
func (e *env) onNode(t *testing.T, id string, names ...string) []string {
	t.Helper()
	for _, other := range dtestNodes {
		require.NoError(t, e.cluster.SetAlive(other, other == id))
	}
	defer func() {
		for _, other := range dtestNodes {
			require.NoError(t, e.cluster.SetAlive(other, true))
		}
	}()
	return e.values(t, consistency.One, nil, names...)
}

// twoColumns is a row "0" holding two columns at ts.
func twoColumns(n1, n2, v1, v2 string, ts int64) replica.Partition {
	return p(replica.NewRow("0", replica.Live(n1, v1, ts), replica.Live(n2, v2, ts)).WithLiveness(replica.Inserted(ts)))
}

// read_repair_test.py TestReadRepair.test_alter_rf_and_run_read_repair
// (CASSANDRA-10655, CASSANDRA-10657): the row (a=1, b=1) is on A alone (RF
// raised from 1 to 3 without repair). SELECT a at ALL repairs a only: B and
// C then show (1, null) at ONE; SELECT * at ALL repairs b too.
func TestDtestReadRepairOfTheColumnsRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := srpEnv(t, coordinator.TableOptions{}, twoColumns("a", "b", "1", "1", 1), p(), p())
		assert.Equal(t, []string{"1"}, e.values(t, consistency.All, []string{"a"}, "a"))
		for id, want := range map[string][]string{A: {"1", "1"}, B: {"1", "null"}, C: {"1", "null"}} {
			assert.Equal(t, want, e.onNode(t, id, "a", "b"), "%s after SELECT a", id)
		}
		assert.Equal(t, []string{"1", "1"}, e.values(t, consistency.All, nil, "a", "b"))
		for _, id := range dtestNodes {
			assert.Equal(t, []string{"1", "1"}, e.onNode(t, id, "a", "b"), "%s after SELECT *", id)
		}
	})
}

// read_repair_test.py TestReadRepair.test_gcable_tombstone_resurrection_on_-
// range_slice_query (CASSANDRA-11427), on one partition: with
// gc_grace_seconds 0, A and C hold a partition deletion that B compacted
// away. A read at ALL finds no mismatch and sends no repair.
func TestDtestNoRepairOfAPurgeableTombstone(t *testing.T) {
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		synctest.Test(t, func(t *testing.T) {
			deleted := p().WithDeletion(replica.DeletedAt(2, now-100))
			e := srpEnv(t, coordinator.TableOptions{GCGraceSeconds: -1, Strategy: strategy}, deleted, p(), deleted)
			res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, NowInSec: now})
			require.NoError(t, err)
			assert.Empty(t, res.Visible().Rows)
			assert.False(t, res.Trace.DigestMismatch, "%v", strategy)
			assert.Empty(t, res.Trace.Repaired, "%v", strategy)
			settle()
			for _, id := range dtestNodes {
				assert.Zero(t, e.stats(id).Mutations, "%s, %v", id, strategy)
			}
		})
	}
}

// read_repair_test.py TestReadRepairGuarantees.test_monotonic_reads and
// test_atomic_writes: (v1, v2) = (1, 1) at QUORUM everywhere, then (2, 2)
// on A alone. A QUORUM read from A and B (C down) returns (2, 2); a
// QUORUM read from B and C (A down) then returns (2, 2) under BLOCKING and
// (1, 1) under NONE (monotonic reads). If the first read selects v1 only,
// the second returns (2, 1) under BLOCKING, and (1, 1) under NONE (atomic
// writes).
func TestDtestReadRepairGuarantees(t *testing.T) {
	for _, c := range []struct {
		mode    repair.Mode
		columns []string
		first   []string
		second  []string
	}{
		{repair.Blocking, nil, []string{"2", "2"}, []string{"2", "2"}},
		{repair.None, nil, []string{"2", "2"}, []string{"1", "1"}},
		{repair.Blocking, []string{"v1"}, []string{"2", "null"}, []string{"2", "1"}},
		{repair.None, []string{"v1"}, []string{"2", "null"}, []string{"1", "1"}},
	} {
		synctest.Test(t, func(t *testing.T) {
			old := twoColumns("v1", "v2", "1", "1", 1)
			e := srpEnv(t, coordinator.TableOptions{ReadRepair: c.mode},
				merged(t, old, twoColumns("v1", "v2", "2", "2", 2)), old, old)
			require.NoError(t, e.cluster.SetAlive(C, false))
			assert.Equal(t, c.first, e.values(t, consistency.Quorum, c.columns, "v1", "v2"), "%v %v", c.mode, c.columns)
			require.NoError(t, e.cluster.SetAlive(C, true))
			settle()
			require.NoError(t, e.cluster.SetAlive(A, false))
			assert.Equal(t, c.second, e.values(t, consistency.Quorum, nil, "v1", "v2"), "%v %v", c.mode, c.columns)
		})
	}
}

// consistency_test.py test_readrepair: rows written at ONE while B and C
// was down (so on A alone; the dtest's RF is 2, here 3 with C down, so
// that QUORUM is ALL of A and B as there); QUORUM reads of every key, then
// A down: B holds every row, read at ONE.
// test_quorum_available_during_failure: rows written at QUORUM everywhere,
// A down: QUORUM reads succeed.
func TestDtestReadRepairThenReadTheRepairedNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := []string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"}
		for _, k := range keys {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.SeedOn(tbl, pk(k, insV("c1", 1), insV("c2", 1)), A))
		}
		read := func(level consistency.Level) {
			t.Helper()
			got := readManyRows(t, e, level, keys, replica.Query{}, 0)
			assert.Len(t, got, 2*len(keys), "%v", level)
		}
		require.NoError(t, e.cluster.SetAlive(C, false))
		read(consistency.Quorum)
		require.NoError(t, e.cluster.SetAlive(A, false))
		read(consistency.One)
		require.NoError(t, e.cluster.SetAlive(C, true))
		read(consistency.Quorum)
	})
}
