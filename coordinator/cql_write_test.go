package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// cqlDB is a table on an RF 3 cluster and a coordinator.
type cqlDB struct {
	t   *testing.T
	tab *cqlTable
	e   *env
	ts  int64 // the next write's timestamp, µs
	now int64 // the clock, s
	pks []any // partition keys written, for "range scans"
	// skew makes each write miss one replica in turn (every fourth none),
	// so only reads that reconcile at least two replicas see every write.
	skew bool
	// defaultTTL is the table's default_time_to_live, s: the TTL of a
	// write that gives none.
	defaultTTL int32
}

func newCQL(t *testing.T, tab *cqlTable, o coordinator.TableOptions) *cqlDB {
	t.Helper()
	if o.SpeculativeRetry.String() == "99p" {
		o.SpeculativeRetry = policy(t, "NEVER").SpeculativeRetry
	}
	e := newEnv(t, coordinator.Config{DefaultTable: o})
	return &cqlDB{t: t, tab: tab, e: e, ts: now * 1_000_000, now: now}
}

func (db *cqlDB) pkey(v any) string { return fmt.Sprint(v) }

func (db *cqlDB) apply(p replica.Partition) {
	db.t.Helper()
	db.ts++
	reps, _, err := db.e.cluster.Locate(tbl, p.Key)
	require.NoError(db.t, err)
	var ids []string
	for _, r := range reps {
		ids = append(ids, r.Endpoint().ID)
	}
	if db.skew { // each write misses one replica in turn, or none
		if miss := int(db.ts % 4); miss < len(ids) {
			ids = slices.Delete(slices.Clone(ids), miss, miss+1)
		}
	}
	for _, id := range ids {
		require.NoError(db.t, db.e.replica(id).Apply(context.Background(), replica.Mutation{Table: tbl, Partition: p}))
	}
}

func (db *cqlDB) notePK(pk any) {
	if !slices.Contains(db.pks, pk) {
		db.pks = append(db.pks, pk)
	}
}

type wopt struct {
	ttl     int32
	zeroTTL bool  // USING TTL 0: no TTL, whatever the default (CASSANDRA-11207)
	ts      int64 // USING TIMESTAMP, µs; 0 takes the next
}

func (db *cqlDB) cells(vals map[string]any, ts int64, o wopt) (stat, reg []replica.Cell) {
	for c, v := range vals {
		if c == db.tab.pk.name || slices.ContainsFunc(db.tab.cks, func(k cqlCol) bool { return k.name == c }) {
			continue
		}
		var cell replica.Cell
		switch {
		case v == nil:
			cell = replica.Tombstone(c, ts, db.now)
		case o.ttl > 0:
			cell = replica.Expiring(c, fmt.Sprint(v), ts, o.ttl, db.now+int64(o.ttl))
		default:
			cell = replica.Live(c, fmt.Sprint(v), ts)
		}
		if db.tab.isStatic(c) {
			stat = append(stat, cell)
		} else {
			reg = append(reg, cell)
		}
	}
	return stat, reg
}

// skinny reports a table with no clustering columns, whose one row per
// partition has the empty clustering.
func (db *cqlDB) skinny() bool { return len(db.tab.cks) == 0 }

func (db *cqlDB) stamp(o wopt) int64 {
	if o.ts != 0 {
		return o.ts
	}
	return db.ts
}

// insert is INSERT INTO t (cols) VALUES (vals) [USING TTL/TIMESTAMP]:
// a row with primary-key liveness, or only static cells when no
// clustering value is given.
func (db *cqlDB) insert(vals map[string]any, opts ...wopt) {
	db.t.Helper()
	db.write(vals, true, opts...)
}

// update is UPDATE t SET … WHERE pk AND cks: cells, no liveness.
func (db *cqlDB) update(vals map[string]any, opts ...wopt) {
	db.t.Helper()
	db.write(vals, false, opts...)
}

func (db *cqlDB) write(vals map[string]any, insert bool, opts ...wopt) {
	db.t.Helper()
	var o wopt
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.ttl == 0 && !o.zeroTTL {
		o.ttl = db.defaultTTL
	}
	ts := db.stamp(o)
	pk := vals[db.tab.pk.name]
	db.notePK(pk)
	p := replica.NewPartition(db.pkey(pk))
	stat, reg := db.cells(vals, ts, o)
	if len(stat) > 0 {
		p = p.WithStatic(stat...)
	}
	if db.skinny() || hasKey(vals, db.tab.cks[0].name) {
		var ck []any
		for _, c := range db.tab.cks {
			ck = append(ck, vals[c.name])
		}
		r := replica.NewRow(db.tab.clustering(ck...), reg...)
		if insert {
			if o.ttl > 0 {
				r = r.WithLiveness(replica.InsertedWithTTL(ts, o.ttl, db.now+int64(o.ttl)))
			} else {
				r = r.WithLiveness(replica.Inserted(ts))
			}
		}
		p.Rows = []replica.Row{r}
	}
	db.apply(p)
}

// deleteRows is DELETE FROM t WHERE pk = ? [AND clustering relations]: the
// partition, one row, or a range tombstone over the relations' slices.
func (db *cqlDB) deleteRows(pk any, where ...cqlRel) {
	db.t.Helper()
	d := replica.DeletedAt(db.ts, db.now)
	p := replica.NewPartition(db.pkey(pk))
	switch {
	case len(where) == 0:
		p = p.WithDeletion(d)
	case len(where) == len(db.tab.cks) && allEQ(where):
		var ck []any
		for _, r := range where {
			ck = append(ck, r.vals[0])
		}
		p.Rows = []replica.Row{replica.NewRow(db.tab.clustering(ck...)).WithDeletion(d)}
	default:
		sl, err := db.tab.slices(where)
		require.NoError(db.t, err)
		var rts []replica.RangeTombstone
		for _, s := range sl {
			rts = append(rts, replica.NewRangeTombstone(s.Start, s.End, d))
		}
		p = p.WithRangeTombstones(rts...)
	}
	db.apply(p)
}

// deleteCols is DELETE cols FROM t WHERE pk = ? AND cks = ?.
func (db *cqlDB) deleteCols(cols []string, pk any, ck ...any) {
	db.t.Helper()
	vals := map[string]any{db.tab.pk.name: pk}
	for i, v := range ck {
		vals[db.tab.cks[i].name] = v
	}
	for _, c := range cols {
		vals[c] = nil
	}
	db.update(vals)
}

func hasKey(vals map[string]any, k string) bool {
	_, ok := vals[k]
	return ok
}

func allEQ(rs []cqlRel) bool {
	for _, r := range rs {
		if r.op != "=" || len(r.cols) != 1 {
			return false
		}
	}
	return true
}
