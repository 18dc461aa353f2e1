package replica_test

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// The scenarios of apache/cassandra's short-read protection tests
// (test/distributed/org/apache/cassandra/distributed/test/
// ShortReadProtectionTest.java, which replaced cassandra-dtest
// consistency_test.py's test_short_read, test_12872 and test_14330), as
// each replica answers them: clustering keys are ints (int32Key), writes
// "USING TIMESTAMP 0" are at timestamp 1 here (a liveness at 0 would read
// as none), and later writes at 2.

const srpNow = 1000

// insert is INSERT INTO t (k, c[, v]) VALUES (0, c[, v]) at ts.
func insert(c int32, ts int64, values ...string) replica.Row {
	var cells []replica.Cell
	for _, v := range values {
		cells = append(cells, replica.Live("v", v, ts))
	}
	return replica.NewRow(int32Key(c), cells...).WithLiveness(replica.Inserted(ts))
}

// deleteRow is DELETE FROM t WHERE k = 0 AND c = c at ts.
func deleteRow(c int32, ts int64) replica.Row {
	return replica.NewRow(int32Key(c)).WithDeletion(replica.DeletedAt(ts, srpNow-1))
}

// store merges writes into what a replica holds.
func store(t *testing.T, writes ...replica.Partition) replica.Partition {
	t.Helper()
	p, err := repair.Merge(writes...)
	require.NoError(t, err)
	return p
}

// answer returns a replica's answer to q, and checks that its digest
// answer digests it.
func answer(t *testing.T, stored replica.Partition, q replica.Query) replica.Partition {
	t.Helper()
	cmd := replica.Command{Table: "t", Key: "0", Query: q, NowInSec: srpNow, GCBefore: srpNow - 864000}
	resp, err := cmd.Respond(stored)
	require.NoError(t, err)
	cmd.DigestOnly = true
	d, err := cmd.Respond(stored)
	require.NoError(t, err)
	require.Equal(t, resp.Partition.Digest(), d.Digest, "the digest of a limited answer is that of its data")
	require.Equal(t, resp.Tombstones, d.Tombstones)
	return resp.Partition
}

// shape writes a partition's rows as ints, a deleted one as x and its int.
func shape(p replica.Partition) string {
	var s []string
	for _, r := range p.Rows {
		if r.Deletion.IsLive() {
			s = append(s, keyInt(r.Clustering))
		} else {
			s = append(s, "x"+keyInt(r.Clustering))
		}
	}
	return "[" + strings.Join(s, " ") + "]"
}

// keyInt decodes int32Key.
func keyInt(k string) string {
	return strconv.Itoa(int(int32(binary.BigEndian.Uint32([]byte(k)) ^ 1<<31)))
}

// result returns what a client sees of the merge of the replicas' whole
// answers to q, limited by q, in q's order.
func result(t *testing.T, q replica.Query, replicas ...replica.Partition) []string {
	t.Helper()
	var whole []replica.Partition
	for _, p := range replicas {
		unlimited := q
		unlimited.Limit = 0
		whole = append(whole, answer(t, p, unlimited))
	}
	limited, _ := store(t, whole...).Limit(q, srpNow)
	var out []string
	for _, r := range limited.Visible(srpNow).Rows {
		out = append(out, keyInt(r.Clustering))
	}
	if q.Reversed {
		slices.Reverse(out)
	}
	return out
}

// testDescendingOrder and testAscendingOrder (CASSANDRA-9460): rows 1 to 9
// on every replica, each replica missing another deletion at one end.
func TestShortReadOrderScenarios(t *testing.T) {
	var all []replica.Row
	for c := int32(1); c < 10; c++ {
		all = append(all, insert(c, 1, strconv.Itoa(int(c)*10)))
	}
	base := replica.NewPartition("0", all...)
	tests := []struct {
		name     string
		reversed bool
		deleted  [3]int32
		answers  [4][3]string // per limit 1..4, per replica
		results  [4][]string
	}{
		{"descending", true, [3]int32{7, 8, 9}, [4][3]string{
			{"[9]", "[9]", "[8 x9]"},
			{"[8 9]", "[7 x8 9]", "[7 8 x9]"},
			{"[6 x7 8 9]", "[6 7 x8 9]", "[6 7 8 x9]"},
			{"[5 6 x7 8 9]", "[5 6 7 x8 9]", "[5 6 7 8 x9]"},
		}, [4][]string{{"6"}, {"6", "5"}, {"6", "5", "4"}, {"6", "5", "4", "3"}}},
		{"ascending", false, [3]int32{1, 2, 3}, [4][3]string{
			{"[x1 2]", "[1]", "[1]"},
			{"[x1 2 3]", "[1 x2 3]", "[1 2]"},
			{"[x1 2 3 4]", "[1 x2 3 4]", "[1 2 x3 4]"},
			{"[x1 2 3 4 5]", "[1 x2 3 4 5]", "[1 2 x3 4 5]"},
		}, [4][]string{{"4"}, {"4", "5"}, {"4", "5", "6"}, {"4", "5", "6", "7"}}},
	}
	for _, tt := range tests {
		var nodes []replica.Partition
		for _, c := range tt.deleted {
			nodes = append(nodes, store(t, base, replica.NewPartition("0", deleteRow(c, 2))))
		}
		for limit := 1; limit <= 4; limit++ {
			q := replica.Query{Reversed: tt.reversed, Limit: limit}
			for i, node := range nodes {
				assert.Equal(t, tt.answers[limit-1][i], shape(answer(t, node, q)), "%s, limit %d, node %d", tt.name, limit, i+1)
			}
			assert.Equal(t, tt.results[limit-1], result(t, q, nodes...), "%s, limit %d", tt.name, limit)
		}
	}
}

// testMultipleMissedRows (CASSANDRA-12872): node 1 deleted 1 to 3 and
// holds 5, node 2 holds 4; SELECT ck ... LIMIT 2 returns 0 and 4.
func TestShortReadMultipleMissedRows(t *testing.T) {
	var all []replica.Row
	for c := int32(0); c < 4; c++ {
		all = append(all, insert(c, 1))
	}
	base := replica.NewPartition("0", all...)
	node1 := store(t, base, replica.NewPartition("0", deleteRow(1, 2), deleteRow(2, 2), deleteRow(3, 2), insert(5, 2)))
	node2 := store(t, base, replica.NewPartition("0", insert(4, 2)))
	q := replica.Query{Limit: 2}
	assert.Equal(t, "[0 x1 x2 x3 5]", shape(answer(t, node1, q)))
	assert.Equal(t, "[0 1]", shape(answer(t, node2, q)))
	assert.Equal(t, "[2 3]", shape(answer(t, node2, q.After(int32Key(1)))), "node 2's continuation after its last row")
	assert.Equal(t, "[4]", shape(answer(t, node2, q.After(int32Key(3)))), "and the next, short: node 2 has no more")
	assert.Equal(t, []string{"0", "4"}, result(t, q, node1, node2, base))
}

// testDeleteClusteringWithStatic: with a static column, deleting every row
// on one replica leaves the static row, which a query of every row counts
// and shows as one row (0, null, null, 100).
func TestShortReadDeleteClusteringWithStatic(t *testing.T) {
	static := replica.Live("s", "100", 1)
	base := replica.NewPartition("0", insert(1, 1, "10"), insert(2, 1, "20")).WithStatic(static)
	node2 := store(t, base, replica.NewPartition("0", deleteRow(1, 2)))
	q := replica.Query{Limit: 1}
	assert.Equal(t, "[1]", shape(answer(t, base, q)))
	got := answer(t, node2, q)
	assert.Equal(t, "[x1 2]", shape(got))
	assert.True(t, got.Static.Equal(replica.NewRow("", static)), "the static row is in every answer")
	assert.Equal(t, []string{"2"}, result(t, q, base, node2, base))

	node2 = store(t, node2, replica.NewPartition("0", deleteRow(2, 2)))
	got = answer(t, node2, q)
	assert.Equal(t, "[x1 x2]", shape(got))
	assert.Equal(t, 1, got.LiveRows(q, srpNow), "static data counts as one row")
	merged := store(t, answer(t, base, replica.Query{}), answer(t, node2, replica.Query{}))
	assert.Equal(t, 1, merged.LiveRows(q, srpNow))
	v := merged.Visible(srpNow)
	require.Len(t, v.Rows, 1)
	assert.True(t, v.Rows[0].Static, "shown as the row (0, null, null, 100)")

	sliced := replica.Query{Slices: []replica.Slice{slice(replica.StartAt(int32Key(1)), replica.Top())}, Limit: 1}
	assert.Equal(t, 0, merged.Restrict(sliced).LiveRows(sliced, srpNow), "but not to a slice (WHERE c >= 1)")
}

// test_14330 of cassandra-dtest consistency_test.py (CASSANDRA-14330): a
// range tombstone [0, ...) under rows 0 and 1 on both replicas, row 0
// deleted on node 2. A LIMIT 1 answer closes the range tombstone at its last
// row, and a continuation after it opens the range again.
func TestShortReadRangeTombstoneReopened(t *testing.T) {
	rt := replica.NewRangeTombstone(replica.StartAt(int32Key(0)), replica.Top(), replica.DeletedAt(0, srpNow-1))
	node1 := store(t, replica.NewPartition("0", insert(0, 1), insert(1, 1)).WithRangeTombstones(rt))
	start := rt.Start.AsStart() // the key of 0 ends with a zero byte: StartAfter of the key of -1
	node2 := store(t, node1, replica.NewPartition("0", replica.NewRow(int32Key(0)).WithDeletion(replica.DeletedAt(1, srpNow-1))))
	q := replica.Query{Limit: 1}

	a1 := answer(t, node1, q)
	assert.Equal(t, "[0]", shape(a1))
	assert.Equal(t, []replica.RangeTombstone{replica.NewRangeTombstone(start, replica.EndAt(int32Key(0)), rt.Deletion)}, a1.RangeTombstones)
	a2 := answer(t, node2, q)
	assert.Equal(t, "[x0 1]", shape(a2))
	assert.Equal(t, []replica.RangeTombstone{replica.NewRangeTombstone(start, replica.EndAt(int32Key(1)), rt.Deletion)}, a2.RangeTombstones)

	more := answer(t, node1, q.After(int32Key(0)))
	assert.Equal(t, "[1]", shape(more))
	assert.Equal(t, []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAfter(int32Key(0)), replica.EndAt(int32Key(1)), rt.Deletion)},
		more.RangeTombstones, "the continuation opens the range tombstone again")
	joined := store(t, a1, more)
	assert.Equal(t, a2.RangeTombstones, joined.RangeTombstones, "and merged with the first answer, the pieces join")
	assert.Equal(t, []string{"1"}, result(t, q, node1, node2))
}

// A replica answers a slice of a partition whose range tombstones need no
// clipping, when nothing is purged, without allocating: the answer is a
// part of the stored partition.
func TestRespondToASliceDoesNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := five().WithDeletion(replica.DeletedAt(1, 100))
	for _, cmd := range []replica.Command{
		{Key: "k", NowInSec: 200, GCBefore: 50, Query: replica.Query{Slices: []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("d"))}}},
		{Key: "k", NowInSec: 200, GCBefore: 50, Query: replica.Query{Limit: 2, Reversed: true}},
		{Key: "k", NowInSec: 200, GCBefore: 50, DigestOnly: true, Query: replica.Query{Slices: []replica.Slice{slice(replica.StartAfter("a"), replica.Top())}, Limit: 2}},
	} {
		assert.Zero(t, testing.AllocsPerRun(50, func() { _, _ = cmd.Respond(p) }), "%+v", cmd.Query)
	}
}
