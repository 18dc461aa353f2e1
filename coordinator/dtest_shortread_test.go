package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Ports of the short-read-protection scenarios of Cassandra's distributed
// tests: cassandra-dtest consistency_test.py (TestConsistency.test_short_read,
// test_short_read_delete, test_short_read_quorum_delete, test_12872,
// test_13911*, test_13880, test_13595, test_13747, test_14330) and the
// in-JVM test that replaced them, test/distributed/org/apache/cassandra/
// distributed/test/ShortReadProtectionTest.java, which runs each scenario
// at ALL and QUORUM, with and without paging (page sizes 1 and 10).
//
// As in ShortReadProtectionTest's Tester: allNodes writes every replica;
// toNode(n) writes node n only at ALL, and node n and the next one (n+1,
// 3 wraps to 1) at QUORUM, a write that reached a quorum. Cassandra's
// "USING TIMESTAMP 0" is timestamp 1 here (0 means none), a write without a
// timestamp is 2 (later), and TIMESTAMP 42 stays 42. Node1..3 are A, B, C.
//
// Every variant runs on a fresh cluster (read repair would otherwise change
// the replicas between variants): at ALL; at QUORUM with each replica in
// turn marked down, so that every pair of replicas coordinates once, and
// with all three up; with read repair NONE (as the Java test's tables) and
// BLOCKING; and without paging (one read of LIMIT n) or with paging, where
// pages of 1 and 10 rows are read until n rows or the last page, as the
// driver pages a LIMIT n query (Cassandra's pager never asks more than the
// page size; readpath's limit is the page size, so the client stops at n).

// dtestNodes are node1..node3.
var dtestNodes = [3]string{A, B, C}

// dtestWrite is one write of a scenario: the rows (or deletions) of key it
// applies, to all nodes (node 0) or to node 1..3.
type dtestWrite struct {
	node int
	p    replica.Partition
}

// dtestScenario is a sequence of writes, replayed at a level.
type dtestScenario []dtestWrite

func allNodes(p replica.Partition) dtestWrite      { return dtestWrite{0, p} }
func toNode(n int, p replica.Partition) dtestWrite { return dtestWrite{n, p} }

// versions returns each node's version of each key, after the writes as
// they reach the nodes at level.
func (s dtestScenario) versions(t *testing.T, level consistency.Level) map[string][3]replica.Partition {
	t.Helper()
	out := map[string][3]replica.Partition{}
	for _, w := range s {
		vs := out[w.p.Key]
		for i := range vs {
			if vs[i].Key == "" {
				vs[i] = replica.NewPartition(w.p.Key)
			}
			reached := w.node == 0 || i == w.node-1 ||
				(level == consistency.Quorum && i == w.node%3)
			if reached {
				m, err := repair.Merge(vs[i], w.p)
				require.NoError(t, err)
				vs[i] = m
			}
		}
		out[w.p.Key] = vs
	}
	return out
}

// dtestVariant is one way of running a scenario's read.
type dtestVariant struct {
	level    consistency.Level
	down     string // a replica marked down, or ""
	mode     repair.Mode
	pageSize int // 0: one read of the query's limit
	strategy coordinator.Strategy
}

func (v dtestVariant) String() string {
	return fmt.Sprintf("%s/down=%q/%s/page=%d/%v", v.level, v.down, v.mode, v.pageSize, v.strategy)
}

func dtestVariants() []dtestVariant {
	var out []dtestVariant
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		for _, mode := range []repair.Mode{repair.None, repair.Blocking} {
			for _, page := range []int{0, 1, 10} {
				out = append(out, dtestVariant{consistency.All, "", mode, page, strategy})
				for _, down := range []string{"", A, B, C} {
					out = append(out, dtestVariant{consistency.Quorum, down, mode, page, strategy})
				}
			}
		}
	}
	return out
}

// dtestEnv seeds a fresh cluster with the scenario as it reached the nodes
// at v's level.
func dtestEnv(t *testing.T, s dtestScenario, v dtestVariant, o coordinator.TableOptions) *env {
	t.Helper()
	o.SpeculativeRetry = policy(t, "NEVER").SpeculativeRetry
	o.ReadRepair, o.Strategy = v.mode, v.strategy
	e := newEnv(t, coordinator.Config{DefaultTable: o})
	for k, vs := range s.versions(t, v.level) {
		require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		for i, p := range vs {
			require.NoError(t, e.cluster.SeedOn(tbl, p, dtestNodes[i]))
		}
	}
	if v.down != "" {
		require.NoError(t, e.cluster.SetAlive(v.down, false))
	}
	return e
}

// dtestRow is a row a client sees: its clustering ("" for the static row
// alone) and the value of v, or "null".
func dtestRow(r replica.ViewRow) string {
	v := "null"
	for _, c := range r.Cells {
		if c.Column == "v" {
			v = string(c.Value)
		}
	}
	if r.Static {
		return "static:" + v
	}
	return r.Clustering + ":" + v
}

// readLimited reads q of k as v says: the rows a client sees, in q's order,
// up to q.Limit, one read or page after page. It checks each page: no
// more rows than the page size, a paging state only on a full page, no
// row twice, and rows in the query's order.
func (e *env) readLimited(t *testing.T, v dtestVariant, k string, q replica.Query) []string {
	t.Helper()
	var got []string
	want := q.Limit
	if v.pageSize > 0 {
		q.Limit = v.pageSize
	}
	var state []byte
	for page := 0; ; page++ {
		require.Less(t, page, 50, "%v: paging does not end", v)
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: v.level, Query: q,
			PagingState: state, NowInSec: now})
		require.NoError(t, err, "%v", v)
		require.NoError(t, res.Partition.Validate(), "%v: page %d", v, page)
		rows := res.Visible().Rows
		if q.Reversed {
			rows = slices.Clone(rows)
			slices.Reverse(rows)
		}
		regular := 0
		for _, r := range rows {
			if !r.Static {
				regular++
			}
			if page > 0 && r.Static {
				continue // the static row alone shows only to the first page's query of every row
			}
			got = append(got, dtestRow(r))
		}
		if q.Limit > 0 {
			require.LessOrEqual(t, regular, q.Limit, "%v: page %d", v, page)
		}
		if res.PagingState != nil {
			require.Equal(t, q.Limit, regular, "%v: page %d hands out a state but is short of its limit", v, page)
		}
		if v.pageSize == 0 || res.PagingState == nil || (want > 0 && len(got) >= want) {
			break
		}
		state = res.PagingState
	}
	if want > 0 && len(got) > want {
		got = got[:want]
	}
	seen := map[string]bool{}
	for _, r := range got {
		require.False(t, seen[r], "%v: row %s twice: %v", v, r, got)
		seen[r] = true
	}
	return got
}

// runDtest checks that every variant of s reads want for q of key.
func runDtest(t *testing.T, s dtestScenario, o coordinator.TableOptions, q replica.Query, want ...string) {
	t.Helper()
	for _, v := range dtestVariants() {
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, o)
			got := e.readLimited(t, v, key, q)
			if len(want) == 0 {
				assert.Empty(t, got, "%v", v)
				return
			}
			assert.Equal(t, want, got, "%v", v)
		})
	}
}

// p is a partition of key with rows.
func p(rows ...replica.Row) replica.Partition { return replica.NewPartition(key, rows...) }

// insV is INSERT (k, c, v) VALUES (0, c, c*10) at ts.
func insV(c string, ts int64) replica.Row {
	return replica.NewRow(c, replica.Live("v", c+"0", ts)).WithLiveness(replica.Inserted(ts))
}

// insPK is INSERT (pk, ck) VALUES (0, ck): a row with its liveness only.
func insPK(ck string, ts int64) replica.Row {
	return replica.NewRow(ck).WithLiveness(replica.Inserted(ts))
}

// ShortReadProtectionTest.testMultipleMissedRows, consistency_test.py
// test_12872 (CASSANDRA-12872): LIMIT 2 returns 0 and 4.
func TestDtestMultipleMissedRows(t *testing.T) {
	var s dtestScenario
	for _, ck := range []string{"0", "1", "2", "3"} {
		s = append(s, allNodes(p(insPK(ck, 1))))
	}
	s = append(s,
		toNode(1, p(del("1", 2), del("2", 2), del("3", 2), insPK("5", 2))),
		toNode(2, p(insPK("4", 2))))
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 2}, "0:null", "4:null")
}

// ShortReadProtectionTest.testAscendingOrder and testDescendingOrder,
// consistency_test.py test_short_read (CASSANDRA-9460): rows 1..9, each
// node deleted one of the first (last) three; LIMIT 1 to 4 return the
// first (last) live rows.
func TestDtestShortReadOrder(t *testing.T) {
	for _, c := range []struct {
		name     string
		reversed bool
		deleted  [3]string
		live     []string
	}{
		{"ascending", false, [3]string{"1", "2", "3"}, []string{"4:40", "5:50", "6:60", "7:70"}},
		{"descending", true, [3]string{"7", "8", "9"}, []string{"6:60", "5:50", "4:40", "3:30"}},
	} {
		var s dtestScenario
		for i := 1; i < 10; i++ {
			s = append(s, allNodes(p(insV(fmt.Sprint(i), 1))))
		}
		for n, ck := range c.deleted {
			s = append(s, toNode(n+1, p(del(ck, 2))))
		}
		for limit := 1; limit <= 4; limit++ {
			t.Run(fmt.Sprintf("%s/LIMIT %d", c.name, limit), func(t *testing.T) {
				runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: limit, Reversed: c.reversed}, c.live[:limit]...)
			})
		}
	}
}

// consistency_test.py test_short_read (CASSANDRA-9460) as written: at
// QUORUM, columns 0, 1, 2 (8, 7, 6 of the reversed key) deleted each with
// another node down, so each deletion reached the two other nodes. LIMIT 3
// returns values 3, 4, 5 (5, 4, 3 descending).
func TestDtestShortReadQuorumDeletesWithANodeDown(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		vs := deletedWithANodeDown(t, func(dead int) string {
			if reversed {
				return fmt.Sprint(8 - dead)
			}
			return fmt.Sprint(dead)
		})
		want := []string{"3:30", "4:40", "5:50"}
		if reversed {
			want = []string{"5:50", "4:40", "3:30"}
		}
		for _, v := range dtestVariants() {
			if v.level != consistency.Quorum {
				continue
			}
			synctest.Test(t, func(t *testing.T) {
				e := srpEnv(t, coordinator.TableOptions{ReadRepair: v.mode, Strategy: v.strategy}, vs[0], vs[1], vs[2])
				if v.down != "" {
					require.NoError(t, e.cluster.SetAlive(v.down, false))
				}
				got := e.readLimited(t, v, key, replica.Query{Limit: 3, Reversed: reversed})
				assert.Equal(t, want, got, "%v reversed=%v", v, reversed)
			})
		}
	}
}

func merged(t *testing.T, ps ...replica.Partition) replica.Partition {
	t.Helper()
	m, err := repair.Merge(ps...)
	require.NoError(t, err)
	return m
}

// ShortReadProtectionTest.testDeletePartition and testDeletePartitionWith-
// Static, consistency_test.py test_short_read_delete (CASSANDRA-4000) and
// test_short_read_quorum_delete (CASSANDRA-8933): node2 deleted the
// partition; LIMIT 1 returns nothing.
func TestDtestDeletePartition(t *testing.T) {
	for _, static := range []bool{false, true} {
		t.Run(fmt.Sprint("static=", static), func(t *testing.T) {
			first := p(insV("1", 1))
			if static {
				first = first.WithStatic(replica.Live("s", "100", 1))
			}
			s := dtestScenario{
				allNodes(first), allNodes(p(insV("2", 1))),
				toNode(2, p().WithDeletion(replica.DeletedAt(2, now-100))),
			}
			runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1})
		})
	}
}

// consistency_test.py test_short_read_quorum_delete (CASSANDRA-8933) as
// written: rows 1 and 2 everywhere; 1 deleted on A and C, 2 on B and C;
// C down, LIMIT 1 at QUORUM from A and B returns nothing.
func TestDtestShortReadQuorumDelete(t *testing.T) {
	for _, mode := range []repair.Mode{repair.None, repair.Blocking} {
		for _, page := range []int{0, 1, 10} {
			synctest.Test(t, func(t *testing.T) {
				base := p(insPK("1", 1), insPK("2", 1))
				a, b, c := merged(t, base, p(del("1", 2))), merged(t, base, p(del("2", 2))), merged(t, base, p(del("1", 2), del("2", 2)))
				e := srpEnv(t, coordinator.TableOptions{ReadRepair: mode}, a, b, c)
				v := dtestVariant{consistency.Quorum, C, mode, page, coordinator.DataAndDigests}
				require.NoError(t, e.cluster.SetAlive(C, false))
				assert.Empty(t, e.readLimited(t, v, key, replica.Query{Limit: 1}), "%v", v)
			})
		}
	}
}

// ShortReadProtectionTest.testDeleteClustering and testDeleteClustering-
// WithStatic: node2 deleted row 1, then row 2. LIMIT 1 returns row 2, then
// nothing (the partition's static row alone, with the static column).
func TestDtestDeleteClustering(t *testing.T) {
	for _, static := range []bool{false, true} {
		t.Run(fmt.Sprint("static=", static), func(t *testing.T) {
			first := p(insV("1", 1))
			if static {
				first = first.WithStatic(replica.Live("s", "100", 1))
			}
			s := dtestScenario{allNodes(first), allNodes(p(insV("2", 1))), toNode(2, p(del("1", 2)))}
			runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1}, "2:20")
			s = append(s, toNode(2, p(del("2", 2))))
			if static {
				runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1}, "static:null")
			} else {
				runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1})
			}
		})
	}
}

// consistency_test.py test_14330 (CASSANDRA-14330), and its mirror image
// in descending order: every node holds a range deletion ck >= 0
// (TIMESTAMP 0) and rows 0, 1 (TIMESTAMP 1); node2 deleted row 0 (row 1,
// descending) at TIMESTAMP 1. LIMIT 1 returns row 1 (row 0, descending):
// the continuation reopens the range deletion after (before) the first row.
func TestDtestReopenedRangeDeletion(t *testing.T) {
	rt := replica.NewRangeTombstone(replica.StartAt("0"), replica.Top(), replica.DeletedAt(1, now-100))
	for _, c := range []struct {
		reversed bool
		deleted  string
		want     string
	}{{false, "0", "1:null"}, {true, "1", "0:null"}} {
		s := dtestScenario{
			allNodes(p().WithRangeTombstones(rt)),
			allNodes(p(insPK("0", 2), insPK("1", 2))),
			toNode(2, p(del(c.deleted, 2))),
		}
		t.Run(fmt.Sprint("reversed=", c.reversed), func(t *testing.T) {
			runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1, Reversed: c.reversed}, c.want)
		})
	}
}

// ShortReadProtectionTest.testSkinnyTableWithoutLiveRows, consistency_test.py
// test_13880 (CASSANDRA-13880): a table without clustering columns whose
// one row node1 deleted; LIMIT 1 returns nothing, and SRP does not loop.
func TestDtestSkinnyTableWithoutLiveRows(t *testing.T) {
	s := dtestScenario{
		allNodes(p(insPK("", 1))),
		toNode(1, p().WithDeletion(replica.DeletedAt(2, now-100))),
	}
	runDtest(t, s, coordinator.TableOptions{NoClusteringColumns: true}, replica.Query{Limit: 1})
}

// readManyRows reads keys as an IN query and returns pk/ck of the rows a
// client sees, in key order.
func readManyRows(t *testing.T, e *env, level consistency.Level, keys []string, q replica.Query, limit int) []string {
	t.Helper()
	res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: level,
		Query: q, Limit: limit, NowInSec: now})
	require.NoError(t, err)
	return manyRows(t, res)
}

// manyRows returns pk/ck of the rows a client sees in res, in key order.
func manyRows(t *testing.T, res []coordinator.KeyResult) []string {
	t.Helper()
	var got []string
	for _, r := range res {
		require.NoError(t, r.Err)
		for _, row := range r.Result.Visible().Rows {
			got = append(got, r.Key+"/"+row.Clustering)
		}
	}
	return got
}

// runManyDtest checks s's IN read of keys at ALL and QUORUM (every pair of
// replicas), unpaged and in pages of 1 and 10 (ManyRequest.PageSize, and
// limit the most over all the pages).
func runManyDtest(t *testing.T, s dtestScenario, o coordinator.TableOptions, keys []string, q replica.Query, limit int, want ...string) {
	t.Helper()
	for _, v := range dtestVariants() {
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, o)
			var got []string
			if v.pageSize == 0 {
				got = readManyRows(t, e, v.level, keys, q, limit)
			} else {
				for _, pg := range pagesOf(t, e.c, coordinator.ManyRequest{Table: tbl, Keys: keys, Level: v.level,
					Query: q, Limit: limit, PageSize: v.pageSize, NowInSec: now}) {
					got = append(got, pg...)
				}
			}
			if len(want) == 0 {
				assert.Empty(t, got, "%v", v)
				return
			}
			assert.Equal(t, want, got, "%v", v)
		})
	}
}

func pk(k string, rows ...replica.Row) replica.Partition { return replica.NewPartition(k, rows...) }

// ShortReadProtectionTest.testSkipEarlyTerminationRows, consistency_test.py
// test_13911_rows_srp (CASSANDRA-13911): PER PARTITION LIMIT 2 LIMIT 3
// returns (0,0), (0,1), (2,2).
func TestDtestSkipEarlyTerminationRows(t *testing.T) {
	s := dtestScenario{
		toNode(1, pk("p0", insPK("0", 1), insPK("1", 1))),
		toNode(1, pk("p2", insPK("0", 1), del("1", 42))),
		toNode(2, pk("p0", insPK("2", 1), insPK("3", 1))),
		toNode(2, pk("p2", del("0", 42), insPK("1", 1), insPK("2", 1))),
	}
	runManyDtest(t, s, coordinator.TableOptions{}, []string{"p0", "p2"}, replica.Query{Limit: 2}, 3, "p0/0", "p0/1", "p2/2")
}

// ShortReadProtectionTest.testSkipEarlyTerminationPartitions,
// consistency_test.py test_13911_partitions_srp (CASSANDRA-13911): PER
// PARTITION LIMIT 2 LIMIT 4 returns (0,0), (0,1), (4,0), (4,1).
func TestDtestSkipEarlyTerminationPartitions(t *testing.T) {
	s := dtestScenario{
		toNode(1, pk("p0", insPK("0", 1), insPK("1", 1))),
		toNode(1, pk("p2", del("0", 42), del("1", 42))),
		toNode(2, pk("p0", insPK("2", 1), insPK("3", 1))),
		toNode(2, pk("p2", insPK("0", 1), insPK("1", 1))),
		toNode(2, pk("p4", insPK("0", 1), insPK("1", 1))),
	}
	runManyDtest(t, s, coordinator.TableOptions{}, []string{"p0", "p2", "p4"}, replica.Query{Limit: 2}, 4,
		"p0/0", "p0/1", "p4/0", "p4/1")
}

// tokenOrder is the keys 0..9 in the Murmur3 token order of
// ShortReadProtectionTest's comment: 5,1,8,0,2,4,7,6,9,3.
var tokenOrder = []string{"5", "1", "8", "0", "2", "4", "7", "6", "9", "3"}

func skinnyRows() dtestScenario {
	var s dtestScenario
	for _, k := range tokenOrder {
		s = append(s, allNodes(pk(k, insPK("", 1))))
	}
	return s
}

func deleteKeys(node int, keys ...string) []dtestWrite {
	var ws []dtestWrite
	for _, k := range keys {
		ws = append(ws, toNode(node, pk(k).WithDeletion(replica.DeletedAt(2, now-100))))
	}
	return ws
}

// ShortReadProtectionTest.testSkinnyTableWithComplementaryDeletions,
// consistency_test.py test_13595 (CASSANDRA-13595): node1 deleted 5, 8, 2,
// 7, 9 and node2 1, 0, 4, 6; SELECT id LIMIT 1, over the keys in token
// order, returns 3.
func TestDtestSkinnyTableWithComplementaryDeletions(t *testing.T) {
	s := skinnyRows()
	s = append(s, deleteKeys(1, "5", "8", "2", "7", "9")...)
	s = append(s, deleteKeys(2, "1", "0", "4", "6")...)
	runManyDtest(t, s, coordinator.TableOptions{NoClusteringColumns: true}, tokenOrder, replica.Query{}, 1, "3/")
}

// ShortReadProtectionTest.testSkinnyTableWithLiveRows, consistency_test.py
// test_13747 (CASSANDRA-13747): node1 deleted 1, 0, 4, 6, 3; the keys read
// return 5, 8, 2, 7, 9.
func TestDtestSkinnyTableWithLiveRows(t *testing.T) {
	s := append(skinnyRows(), deleteKeys(1, "1", "0", "4", "6", "3")...)
	runManyDtest(t, s, coordinator.TableOptions{NoClusteringColumns: true}, tokenOrder, replica.Query{}, 0,
		"5/", "8/", "2/", "7/", "9/")
}

// ShortReadProtectionTest.testGroupByRegularRow (CASSANDRA-15459), its
// SELECT * LIMIT 1 and LIMIT 10 (readpath has no GROUP BY): every row is
// deleted on one node or the other; nothing is returned.
func TestDtestGroupByRegularRowLimits(t *testing.T) {
	s := dtestScenario{
		toNode(1, pk("p1", insPK("1", 1))), toNode(1, pk("p0", del("0", 2))), toNode(1, pk("p2", insPK("2", 1))),
		toNode(2, pk("p1", del("1", 2))), toNode(2, pk("p0", insPK("0", 1))), toNode(2, pk("p2", del("2", 2))),
	}
	for _, limit := range []int{1, 10} {
		runManyDtest(t, s, coordinator.TableOptions{}, []string{"p1", "p0", "p2"}, replica.Query{}, limit)
	}
}

// ShortReadProtectionTest.testGroupByStaticRow (CASSANDRA-15459), its
// SELECT * LIMIT 1 and LIMIT 10: each partition's static column is set on
// one node and set to null later on the other; nothing is returned.
func TestDtestGroupByStaticRowLimits(t *testing.T) {
	set := func(k, v string) replica.Partition { return pk(k).WithStatic(replica.Live("s", v, 1)) }
	null := func(k string) replica.Partition { return pk(k).WithStatic(replica.Tombstone("s", 2, now-100)) }
	s := dtestScenario{
		toNode(1, set("p1", "1")), toNode(1, null("p0")), toNode(1, set("p2", "2")),
		toNode(2, null("p1")), toNode(2, set("p0", "0")), toNode(2, null("p2")),
	}
	for _, limit := range []int{1, 10} {
		runManyDtest(t, s, coordinator.TableOptions{}, []string{"p1", "p0", "p2"}, replica.Query{}, limit)
	}
}

// consistency_test.py test_14513_permanent (CASSANDRA-14513), scaled down:
// rows for years 2011..2017 (3 months, 3 days each) on every node; with C
// down, deletions of every day of 2018-01 (range deletions of a clustering
// prefix) reach A and B; with B down, a deletion of 2010-12-30 reaches A
// and C. A read of year < 2018 ORDER BY year DESC at QUORUM from A and C,
// with blocking read repair, unpaged and in pages of 7, returns every row,
// and then so does a read of the whole partition at QUORUM from any pair:
// no repair propagated a range deletion wider than written.
func TestDtestReversedRangeDeletionsRepair(t *testing.T) {
	prefix := func(s string) replica.RangeTombstone { // every clustering that starts with s
		return replica.NewRangeTombstone(replica.StartAt(s), replica.EndBefore(s+"\xff"), replica.DeletedAt(2, now-100))
	}
	var rows []replica.Row
	var all []string
	for y := 2011; y <= 2017; y++ {
		for m := 1; m <= 3; m++ {
			for d := 1; d <= 3; d++ {
				ck := fmt.Sprintf("%d-%02d-%02d-title", y, m, d)
				rows = append(rows, insV(ck, 1))
				all = append(all, ck+":"+ck+"0")
			}
		}
	}
	base := p(rows...)
	var days []replica.RangeTombstone
	for d := 1; d <= 30; d++ {
		days = append(days, prefix(fmt.Sprintf("2018-01-%02d-", d)))
	}
	ab := merged(t, base, p().WithRangeTombstones(days...))
	older := p().WithRangeTombstones(prefix("2010-12-30-"))
	desc := slices.Clone(all)
	slices.Reverse(desc)
	q := replica.Query{Slices: []replica.Slice{{Start: replica.Bottom(), End: replica.EndBefore("2018")}}, Reversed: true}
	for _, pageSize := range []int{0, 7} {
		synctest.Test(t, func(t *testing.T) {
			e := srpEnv(t, coordinator.TableOptions{ReadRepair: repair.Blocking},
				merged(t, ab, older), ab, merged(t, base, older))
			require.NoError(t, e.cluster.SetAlive(B, false))
			v := dtestVariant{consistency.Quorum, B, repair.Blocking, pageSize, coordinator.DataAndDigests}
			assert.Equal(t, desc, e.readLimited(t, v, key, q), "%v", v)
			require.NoError(t, e.cluster.SetAlive(B, true))
			for _, down := range []string{A, B, C} {
				require.NoError(t, e.cluster.SetAlive(down, false))
				v := dtestVariant{consistency.Quorum, down, repair.Blocking, 0, coordinator.DataAndDigests}
				assert.Equal(t, all, e.readLimited(t, v, key, replica.Query{}), "%v", v)
				require.NoError(t, e.cluster.SetAlive(down, true))
			}
		})
	}
}

// Paging at QUORUM while the replica down changes from page to page, as
// when pages go to different coordinators (ShortReadProtectionTest reads
// from each coordinator): with quorum writes (test_short_read's deletions,
// each made with another node down), every pair of replicas continues the
// same pages. Pages of 1 and 2 rows, both orders.
func TestDtestPagingAcrossReplicaPairs(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		for _, pageSize := range []int{1, 2} {
			synctest.Test(t, func(t *testing.T) {
				vs := deletedWithANodeDown(t, func(dead int) string { return fmt.Sprint(dead*3 + 1) })
				e := srpEnv(t, coordinator.TableOptions{ReadRepair: repair.None}, vs[0], vs[1], vs[2])
				q := replica.Query{Limit: pageSize, Reversed: reversed}
				var got []string
				var state []byte
				for pg := 0; ; pg++ {
					require.Less(t, pg, 20)
					down := dtestNodes[pg%3]
					require.NoError(t, e.cluster.SetAlive(down, false))
					rows, next := page(t, e.c, key, q, state, consistency.Quorum)
					require.NoError(t, e.cluster.SetAlive(down, true))
					require.LessOrEqual(t, len(rows), pageSize)
					if next != nil {
						require.Len(t, rows, pageSize, "page %d hands out a state but is short", pg)
					}
					if reversed {
						rows = reverse(rows) // a page's rows come ascending
					}
					got = append(got, rows...)
					if next == nil {
						break
					}
					state = next
				}
				want := []string{"0", "2", "3", "5", "6", "8"}
				if reversed {
					want = reverse(want)
				}
				assert.Equal(t, want, got)
			})
		}
	}
}

// paging_test.py TestPagingData.test_per_partition_limit_paging
// (CASSANDRA-11535), its IN and single-partition queries at ALL: rows 0..4
// in partitions 1, 2, 3, unpaged (TestDtestPerPartitionLimitPaging pages
// it).
func TestDtestPerPartitionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := []string{"1", "2", "3"}
		for _, k := range keys {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, pk(k, insV("0", 1), insV("1", 1), insV("2", 1), insV("3", 1), insV("4", 1))))
		}
		in := func(ppl, limit int, q replica.Query) []string {
			q.Limit = ppl
			return readManyRows(t, e, consistency.All, keys, q, limit)
		}
		assert.Equal(t, []string{"1/0", "1/1", "1/2", "2/0", "2/1", "2/2", "3/0", "3/1", "3/2"}, in(3, 0, replica.Query{}), "PER PARTITION LIMIT 3")
		assert.Equal(t, []string{"1/0", "1/1", "1/2", "2/0", "2/1", "2/2", "3/0"}, in(3, 7, replica.Query{}), "PER PARTITION LIMIT 3 LIMIT 7")
		one := func(q replica.Query, limit int) []string {
			got := readManyRows(t, e, consistency.All, []string{"1"}, q, limit)
			if q.Reversed {
				got = reverse(got)
			}
			return got
		}
		assert.Equal(t, []string{"1/0", "1/1", "1/2", "1/3"}, one(replica.Query{Limit: 4}, 0), "a = 1 PER PARTITION LIMIT 4")
		assert.Equal(t, []string{"1/4", "1/3", "1/2", "1/1"}, one(replica.Query{Limit: 4, Reversed: true}, 0), "ORDER BY b DESC PER PARTITION LIMIT 4")
		assert.Equal(t, []string{"1/0", "1/1", "1/2"}, one(replica.Query{Limit: 4}, 3), "PER PARTITION LIMIT 4 LIMIT 3")
		gt1 := []replica.Slice{{Start: replica.StartAfter("1"), End: replica.Top()}}
		assert.Equal(t, []string{"1/2", "1/3"}, one(replica.Query{Slices: gt1, Limit: 2}, 0), "b > 1 PER PARTITION LIMIT 2")
		assert.Equal(t, []string{"1/4", "1/3"}, one(replica.Query{Slices: gt1, Limit: 2, Reversed: true}, 0), "b > 1 ORDER BY b DESC PER PARTITION LIMIT 2")
	})
}

// deletedWithANodeDown returns the three nodes' versions of a partition of
// nine values, 0 to 8, after three deletions each made while one node was
// down: the row ck(dead) is deleted on the two nodes other than dead.
func deletedWithANodeDown(t *testing.T, ck func(dead int) string) [3]replica.Partition {
	t.Helper()
	base := p()
	for i := range 9 {
		base = merged(t, base, p(insV(fmt.Sprint(i), 1)))
	}
	var vs [3]replica.Partition
	for n := range 3 {
		vs[n] = base
		for dead := range 3 {
			if dead != n {
				vs[n] = merged(t, vs[n], p(del(ck(dead), 2)))
			}
		}
	}
	return vs
}
