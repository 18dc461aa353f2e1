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

// The short-read scenarios of Cassandra's jvm-dtest ShortReadProtectionTest
// (test/distributed/org/apache/cassandra/distributed/test/, which replaced
// cassandra-dtest's consistency_test.py short-read tests), over three
// replicas A, B, C as its node1..node3. Writes "to all nodes" are seeded
// everywhere at timestamp 10; a write "to one node" (which the read at ALL
// must reconcile) goes to that replica only, at timestamp 20. Clustering
// keys are one digit, so that byte order is numeric order.

func ins(ck string, ts int64) replica.Row {
	return replica.NewRow(ck, replica.Live("v", ck+"0", ts)).WithLiveness(replica.Inserted(ts))
}

func del(ck string, ts int64) replica.Row {
	return replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, now-100))
}

// srpEnv is a three-replica cluster at NEVER (no hedge clouds the count of
// requests) with each replica's version of key.
func srpEnv(t *testing.T, o coordinator.TableOptions, a, b, c replica.Partition) *env {
	t.Helper()
	if o.SpeculativeRetry.String() == "99p" {
		o.SpeculativeRetry = policy(t, "NEVER").SpeculativeRetry
	}
	e := newEnv(t, coordinator.Config{DefaultTable: o})
	for id, p := range map[string]replica.Partition{A: a, B: b, C: c} {
		require.NoError(t, e.cluster.SeedOn(tbl, p, id))
	}
	return e
}

// seeded returns the partition of key with the rows of all (at 10) merged
// with extra.
func seeded(t *testing.T, all []string, extra ...replica.Row) replica.Partition {
	t.Helper()
	var rows []replica.Row
	for _, ck := range all {
		rows = append(rows, ins(ck, 10))
	}
	p, err := repair.Merge(replica.NewPartition(key, rows...), replica.NewPartition(key, extra...))
	require.NoError(t, err)
	return p
}

// query reads key at level with q and returns the clustering keys a
// client sees, and how many short-read requests the read sent.
func (e *env) query(t *testing.T, level consistency.Level, q replica.Query) ([]string, int64) {
	t.Helper()
	before := e.c.Metrics().Total.ShortReadRequests
	res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, Query: q, NowInSec: now})
	require.NoError(t, err)
	var cks []string
	for _, r := range res.Visible().Rows {
		cks = append(cks, r.Clustering)
	}
	return cks, e.c.Metrics().Total.ShortReadRequests - before
}

// CASSANDRA-12872, testMultipleMissedRows: A deleted 1, 2, 3 and inserted
// 5; B inserted 4. LIMIT 2 must return 0 and 4. B and C stop at 1, which
// the merge finds deleted, so both are asked for what follows 1 (2, 3), and
// then what follows 3: B has 4, C nothing. Four short-read requests.
func TestShortReadMultipleMissedRows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		base := []string{"0", "1", "2", "3"}
		e := srpEnv(t, coordinator.TableOptions{},
			seeded(t, base, del("1", 20), del("2", 20), del("3", 20), ins("5", 20)),
			seeded(t, base, ins("4", 20)),
			seeded(t, base))
		cks, extra := e.query(t, consistency.All, replica.Query{Limit: 2})
		assert.Equal(t, []string{"0", "4"}, cks)
		assert.Equal(t, int64(4), extra)
	})
}

// CASSANDRA-9460, testAscendingOrder and testDescendingOrder: each replica
// deleted one of the first (last, descending) three rows; the first (last)
// live rows follow them, for every limit from 1 to 4. With LIMIT 2, say, A
// answers x1 2 3, B 1 x2 3, C 1 2: the merge has one live row (3), so all
// three are asked for more, after 3, 3 and 2, and then it has enough.
func TestShortReadDeletedRowsAtTheStart(t *testing.T) {
	all := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	for _, c := range []struct {
		name     string
		reversed bool
		deleted  [3]string
		want     []string
	}{
		{"ascending", false, [3]string{"1", "2", "3"}, []string{"4", "5", "6", "7"}},
		{"descending", true, [3]string{"7", "8", "9"}, []string{"6", "5", "4", "3"}},
	} {
		for limit := 1; limit <= 4; limit++ {
			t.Run(c.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					e := srpEnv(t, coordinator.TableOptions{},
						seeded(t, all, del(c.deleted[0], 20)), seeded(t, all, del(c.deleted[1], 20)), seeded(t, all, del(c.deleted[2], 20)))
					cks, extra := e.query(t, consistency.All, replica.Query{Limit: limit, Reversed: c.reversed})
					want := c.want[:limit]
					if c.reversed {
						want = reverse(want)
					}
					assert.Equal(t, want, cks, "LIMIT %d", limit)
					// LIMIT 1: each replica's one row is dead, three rounds
					// of two; LIMIT 2 to 4: one round of three.
					assert.Equal(t, map[bool]int64{true: 6, false: 3}[limit == 1], extra, "LIMIT %d", limit)
				})
			})
		}
	}
}

func reverse(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// CASSANDRA-4000 and -8933, testDeletePartition: B deleted the partition;
// LIMIT 1 at ALL and at QUORUM (where B's write also reached C) reads
// nothing, static row or not (testDeletePartitionWithStatic).
func TestShortReadDeletedPartition(t *testing.T) {
	for _, level := range []consistency.Level{consistency.All, consistency.Quorum} {
		for _, static := range []bool{false, true} {
			t.Run(level.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					p := seeded(t, []string{"1", "2"})
					if static {
						p = p.WithStatic(replica.Live("s", "100", 10))
					}
					gone := p.WithDeletion(replica.DeletedAt(20, now-100))
					other := p
					if level == consistency.Quorum {
						other = gone
					}
					e := srpEnv(t, coordinator.TableOptions{}, p, gone, other)
					cks, _ := e.query(t, level, replica.Query{Limit: 1})
					assert.Empty(t, cks)
				})
			})
		}
	}
}

// testDeleteClusteringWithStatic: B deleted row 1, then row 2; LIMIT 1
// reads row 2, then the partition's static data alone, as one row.
func TestShortReadDeletedRowsWithStatic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := seeded(t, []string{"1", "2"}).WithStatic(replica.Live("s", "100", 10))
		e := srpEnv(t, coordinator.TableOptions{}, p, p, p)
		require.NoError(t, e.cluster.SeedOn(tbl, seeded(t, []string{"2"}, del("1", 20)).WithStatic(replica.Live("s", "100", 10)), B))
		cks, _ := e.query(t, consistency.All, replica.Query{Limit: 1})
		assert.Equal(t, []string{"2"}, cks)

		require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition(key, del("1", 20), del("2", 20)).WithStatic(replica.Live("s", "100", 10)), B))
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: replica.Query{Limit: 1}, NowInSec: now})
		require.NoError(t, err)
		v := res.Visible()
		require.Len(t, v.Rows, 1)
		assert.True(t, v.Rows[0].Static, "the static row alone: %v", v)
	})
}

// CASSANDRA-13880, testSkinnyTableWithoutLiveRows: a table without
// clustering columns, whose one row A deleted. B and C answer their row,
// which the merge finds deleted, but no replica is asked for more: there
// is nothing after a table's only row.
func TestShortReadNeverRunsWithoutClusteringColumns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		row := replica.NewPartition(key, ins("", 10))
		e := srpEnv(t, coordinator.TableOptions{NoClusteringColumns: true}, row.WithDeletion(replica.DeletedAt(20, now-100)), row, row)
		cks, extra := e.query(t, consistency.All, replica.Query{Limit: 1})
		assert.Empty(t, cks)
		assert.Zero(t, extra)
	})
}

// CASSANDRA-14330, cassandra-dtest consistency_test.py test_14330 (its
// timestamps 0 and 1 shifted to 1 and 2: a zero timestamp means none
// here): every replica holds a range deletion of ck >= 0 at 1 and rows 0
// and 1 at 2; B also deleted row 0 at 2. LIMIT 1: A and C stop at row 0, which B deleted,
// so each is asked for the rows after 0, and its continuation opens the
// range deletion again after 0. The result is row 1, and the merge joins
// the two pieces of the range deletion into one.
func TestShortReadReopensARangeDeletion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt := replica.NewRangeTombstone(replica.StartAt("0"), replica.Top(), replica.DeletedAt(0+1, now-100))
		p := replica.NewPartition(key, ins("0", 2), ins("1", 2)).WithRangeTombstones(rt)
		bp, err := repair.Merge(p, replica.NewPartition(key, del("0", 2)))
		require.NoError(t, err)
		e := srpEnv(t, coordinator.TableOptions{}, p, bp, p)

		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
			Query: replica.Query{Limit: 1}, NowInSec: now})
		require.NoError(t, err)
		v := res.Visible()
		require.Len(t, v.Rows, 1)
		assert.Equal(t, "1", v.Rows[0].Clustering)
		assert.Equal(t, int64(2), e.c.Metrics().Total.ShortReadRequests, "A and C, once each")
		require.Len(t, res.Partition.RangeTombstones, 1, "%v", res.Partition)
		assert.Equal(t, "0", res.Partition.RangeTombstones[0].Start.Clustering)
	})
}
