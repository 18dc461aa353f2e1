package replica_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// tombstonesOf returns how many tombstones Respond counts reading p at now
// 100 with gcBefore 10, which purges nothing here.
func tombstonesOf(t *testing.T, p replica.Partition, q replica.Query) int {
	t.Helper()
	resp, err := replica.Command{Key: p.Key, Query: q, NowInSec: 100, GCBefore: 10}.Respond(p)
	require.NoError(t, err)
	return resp.Tombstones
}

// What counts, as Cassandra's ReadCommand.MetricRecording counts it
// (apache/cassandra src/java/org/apache/cassandra/db/ReadCommand.java,
// withMetricsRecording: applyToStatic, applyToRow, applyToMarker).
func TestTombstonesCountedAsCassandraCounts(t *testing.T) {
	d := replica.DeletedAt(5, 50)
	live := replica.Live("v", "x", 10)
	rt := func(start, end replica.Bound) replica.RangeTombstone { return replica.NewRangeTombstone(start, end, d) }
	tests := []struct {
		name string
		p    replica.Partition
		want int
	}{
		{"live data", replica.NewPartition("k", replica.NewRow("a", live)).WithStatic(live), 0},
		{"a cell tombstone", replica.NewPartition("k", replica.NewRow("a", live, replica.Tombstone("w", 10, 50))), 1},
		{"every dead cell", replica.NewPartition("k", replica.NewRow("a", replica.Tombstone("v", 10, 50),
			replica.Tombstone("m", 10, 50).WithPath("x"), replica.Expiring("w", "x", 10, 10, 100))), 3},
		{"an expired cell not yet purged", replica.NewPartition("k", replica.NewRow("a", replica.Expiring("v", "x", 10, 10, 90))), 1},
		{"a row deletion", replica.NewPartition("k", replica.NewRow("a").WithDeletion(d)), 1},
		{"a row deletion with dead cells counts the cells", replica.NewPartition("k",
			replica.NewRow("a", replica.Tombstone("v", 10, 50), replica.Tombstone("w", 10, 50)).WithDeletion(d)), 2},
		{"a row deletion of a live row", replica.NewPartition("k", replica.NewRow("a", live).WithDeletion(d)), 0},
		{"a complex deletion alone", replica.NewPartition("k", replica.NewRow("a").WithComplexDeletion("m", d)), 1},
		{"a complex deletion in a live row", replica.NewPartition("k", replica.NewRow("a", live).WithComplexDeletion("m", d)), 0},
		{"expired liveness alone", replica.NewPartition("k", replica.NewRow("a").WithLiveness(replica.InsertedWithTTL(10, 10, 90))), 1},
		{"a range tombstone", replica.NewPartition("k").WithRangeTombstones(rt(replica.StartAt("a"), replica.EndAt("c"))), 2},
		{"touching range tombstones share a bound", replica.NewPartition("k").WithRangeTombstones(
			rt(replica.StartAt("a"), replica.EndBefore("c")), replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("e"), replica.DeletedAt(6, 50))), 3},
		{"apart", replica.NewPartition("k").WithRangeTombstones(
			rt(replica.StartAt("a"), replica.EndAt("b")), replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("e"), replica.DeletedAt(6, 50))), 4},
		{"the partition deletion", replica.NewPartition("k").WithDeletion(d), 0},
		{"dead static cells", replica.NewPartition("k").WithStatic(replica.Tombstone("s", 10, 50), replica.Tombstone("t", 10, 50)), 2},
		{"a static row with only a complex deletion", replica.Partition{Key: "k", Static: replica.NewRow("").WithComplexDeletion("m", d)}, 1},
	}
	for _, tt := range tests {
		require.NoError(t, tt.p.Validate(), tt.name)
		assert.Equal(t, tt.want, tombstonesOf(t, tt.p, replica.Query{}), tt.name)
	}
}

// The count covers what the read scanned: after the slice, the projection
// and the purge, and up to the limit.
func TestTombstonesCountWhatTheReadScanned(t *testing.T) {
	d := replica.DeletedAt(5, 50)
	p := replica.NewPartition("k",
		replica.NewRow("a", replica.Tombstone("v", 10, 50)),
		replica.NewRow("b", replica.Live("v", "x", 10), replica.Tombstone("w", 10, 50)),
		replica.NewRow("c", replica.Tombstone("v", 10, 5)), // purged at gcBefore 10
		replica.NewRow("d", replica.Live("v", "x", 10)),
		replica.NewRow("e", replica.Tombstone("v", 10, 50)),
	).WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("d"), replica.Top(), d))
	tests := []struct {
		name string
		q    replica.Query
		want int
	}{
		{"everything", replica.Query{}, 5},
		{"a slice", replica.Query{Slices: []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("d"))}}, 3},
		{"limit 1: a, b", replica.Query{Limit: 1}, 2},
		{"limit 2: a to d, and the range's start", replica.Query{Limit: 2}, 3},
		{"reversed limit 1: the range's end and e; its start lies past d", replica.Query{Limit: 1, Reversed: true}, 2},
		{"reversed limit 2: down to b", replica.Query{Limit: 2, Reversed: true}, 4},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tombstonesOf(t, p, tt.q), tt.name)
	}
	resp, err := replica.Command{Key: "k", Columns: []string{"w"}, NowInSec: 100, GCBefore: 10}.Respond(p)
	require.NoError(t, err)
	assert.Equal(t, 3, resp.Tombstones, "only the selected column's tombstones, and the range tombstone")
}

func TestTombstoneFailureThreshold(t *testing.T) {
	p := replica.NewPartition("k",
		replica.NewRow("a", replica.Tombstone("v", 10, 50)),
		replica.NewRow("b", replica.Tombstone("v", 10, 50)),
		replica.NewRow("c", replica.Live("v", "x", 10)),
		replica.NewRow("d", replica.Tombstone("v", 10, 50)),
	)
	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 100, GCBefore: 10}
	for _, threshold := range []int{3, 4} {
		cmd.TombstoneFailureThreshold = threshold
		resp, err := cmd.Respond(p)
		require.NoError(t, err, "threshold %d", threshold)
		assert.Equal(t, 3, resp.Tombstones)
	}
	cmd.TombstoneFailureThreshold = 2
	for _, digestOnly := range []bool{false, true} {
		cmd.DigestOnly = digestOnly
		resp, err := cmd.Respond(p)
		var toe *replica.TombstoneOverwhelmingError
		require.True(t, errors.As(err, &toe), "%v", err)
		assert.Equal(t, replica.TombstoneOverwhelmingError{Table: "t", Key: "k", Tombstones: 3, Threshold: 2}, *toe)
		assert.ErrorIs(t, err, replica.ErrTombstoneOverwhelming)
		assert.EqualError(t, err, `replica: tombstone overwhelming: read of partition "k" of table "t" met 3 tombstones, more than the failure threshold 2`)
		assert.Equal(t, replica.Response{}, resp)
	}
	cmd.DigestOnly = false
	cmd.Query = replica.Query{Limit: 1}
	resp, err := cmd.Respond(p)
	require.NoError(t, err, "the limit stops the scan before the third tombstone")
	assert.Equal(t, 2, resp.Tombstones)
	cmd.Query = replica.Query{Limit: 1, Reversed: true}
	resp, err = cmd.Respond(p)
	require.NoError(t, err, "reversed, the scan meets one tombstone before the live row")
	assert.Equal(t, 1, resp.Tombstones)

	cmd.TombstoneFailureThreshold = -1
	_, err = cmd.Respond(p)
	assert.EqualError(t, err, "replica: invalid command: negative tombstone failure threshold -1")
}

// The cases of apache/cassandra test/unit/org/apache/cassandra/cql3/
// validation/miscellaneous/TombstonesTest.java, with its failure threshold
// of 100: a table (a, b, c), PRIMARY KEY (a, b), and rows inserted with c
// null, each a tombstone. Written at 10 (µs and s alike), read at 20.
func TestTombstonesCassandraCases(t *testing.T) {
	const threshold, written, now = 100, 10, 20
	rows := func(n int, c func() replica.Cell) replica.Partition {
		var rs []replica.Row
		for i := range n {
			rs = append(rs, replica.NewRow(fmt.Sprintf("column%03d", i), c()).WithLiveness(replica.Inserted(written)))
		}
		return replica.NewPartition("key", rs...)
	}
	null := func() replica.Cell { return replica.Tombstone("c", written, written) }
	value := func() replica.Cell { return replica.Live("c", "column", written) }
	deleted := replica.NewPartition("key").WithDeletion(replica.DeletedAt(written+1, written+1))
	merged := func(p replica.Partition) replica.Partition {
		m, err := repair.Merge(p, deleted)
		require.NoError(t, err)
		return m
	}
	tests := []struct {
		name       string
		stored     replica.Partition
		gcGrace    int64
		tombstones int // -1: overwhelmed
	}{
		{"testBelowThresholdSelect", rows(threshold, null), 864000, threshold},
		{"testBeyondThresholdSelect", rows(threshold+1, null), 864000, -1},
		{"testAllShadowedSelect", merged(rows(threshold+1, null)), 864000, 0},
		{"testAllShadowedSelect, before reconciliation", rows(threshold+1, null).WithDeletion(deleted.Deletion), 864000, 0},
		{"testLiveShadowedCellsSelect", merged(rows(threshold+1, value)), 864000, 0},
		{"testLiveShadowedCellsSelect, before reconciliation", rows(threshold+1, value).WithDeletion(deleted.Deletion), 864000, 0},
		{"testExpiredTombstones, within gc_grace_seconds", rows(threshold+1, null), 11, -1},
		{"testExpiredTombstones, past gc_grace_seconds", rows(threshold+1, null), 1, 0},
	}
	for _, tt := range tests {
		cmd := replica.Command{Table: "t", Key: "key", NowInSec: now, GCBefore: now - tt.gcGrace, TombstoneFailureThreshold: threshold}
		cmd.GCBefore = max(cmd.GCBefore, 0)
		resp, err := cmd.Respond(tt.stored)
		if tt.tombstones < 0 {
			assert.ErrorIs(t, err, replica.ErrTombstoneOverwhelming, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.tombstones, resp.Tombstones, tt.name)
	}
}
