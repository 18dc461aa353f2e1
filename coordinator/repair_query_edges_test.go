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
)

// Review: a repair covers only what the query read: the columns it
// selected, the rows up to its limit (Cassandra's RowIteratorMergeListener
// sees only the merged stream the limit let through, and isQueried keeps
// unselected columns out of the repair).

func rvRead(t *testing.T, e *env, level consistency.Level, q replica.Query, cols ...string) (coordinator.Result, error) {
	t.Helper()
	return e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, Query: q, Columns: cols})
}

// rvNow is a local deletion time no replica purges (in a bubble).
func rvNow() int64 { return time.Now().Unix() }

func rvSeed(t *testing.T, e *env, p replica.Partition, ids ...string) {
	t.Helper()
	require.NoError(t, e.cluster.SeedOn(tbl, p, ids...))
}

func rvStored(t *testing.T, e *env, id string) replica.Partition {
	t.Helper()
	p, ok := e.replica(id).Partition(tbl, key)
	require.True(t, ok)
	return p
}

// SELECT a: B's older a is repaired with A's a alone; B's newer b, which
// the query did not read, is neither written to A nor deleted on B.
func TestRepairColumnsOnlySelectedColumns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		ac := replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10), replica.Live("b", "2", 30)))
		rvSeed(t, e, ac, A, C)
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "0", 5), replica.Live("b", "9", 40))), B)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		res, err := rvRead(t, e, consistency.Quorum, replica.Query{}, "a")
		require.NoError(t, err)
		want := replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10)))
		assert.True(t, res.Partition.Equal(want), "got %v", res.Partition)
		require.Len(t, log.of(B), 1)
		assert.True(t, log.of(B)[0].Equal(want), "B is sent a alone: %v", log.of(B)[0])
		assert.Empty(t, log.of(A))
		assert.True(t, rvStored(t, e, B).Equal(replica.NewPartition(key,
			replica.NewRow("r", replica.Live("a", "1", 10), replica.Live("b", "9", 40)))))
		assert.True(t, rvStored(t, e, A).Equal(ac), "A keeps its b: nothing of b is written")
	})
}

// SELECT a where B's row has only b: B answers no row, A's row with a is
// repaired onto B as a alone, and the absence of b in A's answer is not
// written anywhere as a deletion.
func TestRepairColumnsRowAbsentInSelection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10))), A, C)
		bOnly := replica.NewPartition(key, replica.NewRow("r", replica.Live("b", "9", 40)))
		rvSeed(t, e, bOnly, B)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		res, err := rvRead(t, e, consistency.Quorum, replica.Query{}, "a")
		require.NoError(t, err)
		want := replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10)))
		assert.True(t, res.Partition.Equal(want))
		require.Len(t, log.of(B), 1)
		assert.True(t, log.of(B)[0].Equal(want))
		assert.True(t, rvStored(t, e, B).Equal(replica.NewPartition(key,
			replica.NewRow("r", replica.Live("a", "1", 10), replica.Live("b", "9", 40)))))
	})
}

// SELECT a where only an unselected column differs: no mismatch, nothing
// written.
func TestRepairColumnsUnselectedDifferenceIsNoMismatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10), replica.Live("b", "2", 30))), A, C)
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r", replica.Live("a", "1", 10), replica.Live("b", "9", 40))), B)
		rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		res, err := rvRead(t, e, consistency.All, replica.Query{}, "a")
		require.NoError(t, err)
		assert.False(t, res.Trace.DigestMismatch)
		settle()
		assert.Zero(t, e.cluster.Stats().Mutations)
	})
}

// LIMIT 1: A holds r1, B r2. The merge holds both, the result r1 alone,
// and so does the repair: B is sent r1, A nothing (r2 lies past the
// limit, which the merged stream never reached).
func TestRepairLimitRowPastTheLimitNotRepaired(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		name := "forward"
		if reversed {
			name = "reversed"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				first, past := "r1", "r2"
				if reversed {
					first, past = "r2", "r1"
				}
				rvSeed(t, e, replica.NewPartition(key, replica.NewRow(first, replica.Live("v", "x", 10))), A, C)
				rvSeed(t, e, replica.NewPartition(key, replica.NewRow(past, replica.Live("v", "y", 10))), B)
				log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

				res, err := rvRead(t, e, consistency.Quorum, replica.Query{Limit: 1, Reversed: reversed})
				require.NoError(t, err)
				want := replica.NewPartition(key, replica.NewRow(first, replica.Live("v", "x", 10)))
				assert.True(t, res.Partition.Equal(want), "got %v", res.Partition)
				assert.True(t, res.Trace.DigestMismatch)
				assert.Empty(t, log.of(A), "A is not sent the row past the limit")
				require.Len(t, log.of(B), 1)
				assert.True(t, log.of(B)[0].Equal(want))
			})
		})
	}
}

// LIMIT 1: B's answer holds a range tombstone and a row after A's r1,
// the limit's last row. Neither is repaired onto A; B gets r1.
func TestRepairLimitRangeTombstonePastTheLimitNotRepaired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r1", replica.Live("v", "x", 10)), replica.NewRow("r5", replica.Live("v", "x", 10))), A, C)
		bp := replica.NewPartition(key, replica.NewRow("r3", replica.Live("v", "y", 30)))
		bp.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("r2"), replica.EndAt("r4"), replica.DeletedAt(20, rvNow()))}
		rvSeed(t, e, bp, B)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		res, err := rvRead(t, e, consistency.Quorum, replica.Query{Limit: 1})
		require.NoError(t, err)
		want := replica.NewPartition(key, replica.NewRow("r1", replica.Live("v", "x", 10)))
		assert.True(t, res.Partition.Equal(want), "got %v", res.Partition)
		assert.Empty(t, log.of(A), "no range tombstone, no row past the limit")
		require.Len(t, log.of(B), 1)
		assert.True(t, log.of(B)[0].Equal(want), "B is sent %v", log.of(B)[0])
		assert.Len(t, rvStored(t, e, A).Rows, 2, "A's r5 stands")
	})
}

// LIMIT 1 where the newer version deletes A's first row: short-read
// protection asks A for more, and the repair is the deletion of r1 for A,
// and r2 for B, which lacked it; A's r3, past the limit, is written
// nowhere.
func TestRepairLimitShortReadRepairsOnlyUpToTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		rvSeed(t, e, replica.NewPartition(key,
			replica.NewRow("r1", replica.Live("v", "x", 10)),
			replica.NewRow("r2", replica.Live("v", "x", 10)),
			replica.NewRow("r3", replica.Live("v", "x", 10))), A, C)
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r1").WithDeletion(replica.DeletedAt(20, rvNow()))), B)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		res, err := rvRead(t, e, consistency.Quorum, replica.Query{Limit: 1})
		require.NoError(t, err)
		v := res.Visible()
		require.Len(t, v.Rows, 1)
		assert.Equal(t, "r2", v.Rows[0].Clustering)
		require.Len(t, log.of(A), 1)
		assert.True(t, log.of(A)[0].Equal(replica.NewPartition(key, replica.NewRow("r1").WithDeletion(replica.DeletedAt(20, rvNow())))),
			"A is sent %v", log.of(A)[0])
		require.Len(t, log.of(B), 1)
		assert.True(t, log.of(B)[0].Equal(replica.NewPartition(key, replica.NewRow("r2", replica.Live("v", "x", 10)))),
			"B is sent %v", log.of(B)[0])
	})
}

// A slice: only the rows in the slice are merged and repaired.
func TestRepairSliceOnlyRowsInTheSlice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		rvSeed(t, e, replica.NewPartition(key,
			replica.NewRow("r1", replica.Live("v", "new", 20)),
			replica.NewRow("r5", replica.Live("v", "new", 20))), A, C)
		rvSeed(t, e, replica.NewPartition(key,
			replica.NewRow("r1", replica.Live("v", "old", 10)),
			replica.NewRow("r5", replica.Live("v", "old", 10))), B)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Blocking), nil, coordinator.Config{})

		q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("r0"), End: replica.EndAt("r2")}}}
		res, err := rvRead(t, e, consistency.Quorum, q)
		require.NoError(t, err)
		want := replica.NewPartition(key, replica.NewRow("r1", replica.Live("v", "new", 20)))
		assert.True(t, res.Partition.Equal(want))
		require.Len(t, log.of(B), 1)
		assert.True(t, log.of(B)[0].Equal(want), "B is sent %v", log.of(B)[0])
	})
}

// NONE: the merged result is returned, at the limit too, and nothing is
// written.
func TestRepairNoneLimitedReturnsMergeWritesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r1", replica.Live("v", "x", 10))), A, C)
		rvSeed(t, e, replica.NewPartition(key, replica.NewRow("r1", replica.Live("v", "y", 20))), B)
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.None), nil, coordinator.Config{})

		res, err := rvRead(t, e, consistency.Quorum, replica.Query{Limit: 1})
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(replica.NewPartition(key, replica.NewRow("r1", replica.Live("v", "y", 20)))))
		assert.True(t, res.Trace.DigestMismatch)
		assert.Empty(t, res.Trace.Repaired)
		settle()
		assert.Empty(t, log.of(A))
		assert.Empty(t, log.of(B))
		assert.Empty(t, log.of(C))
		assert.Zero(t, e.c.Metrics().Total.RepairsSent)
	})
}
