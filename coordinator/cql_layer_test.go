package coordinator_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A small CQL front end over the coordinator, for porting Cassandra's CQL
// validation tests: a schema of one partition-key column, clustering
// columns (int or text, ASC or DESC), static and regular columns; writes
// that become mutations applied to chosen replicas; and a SELECT that
// becomes a Read or ReadMany with slices, order, limits and paging.

type cqlCol struct {
	name string
	text bool // else int
	desc bool
}

type cqlTable struct {
	name    string
	pk      cqlCol
	cks     []cqlCol
	statics []string // sorted
	regs    []string // sorted
	types   map[string]bool
}

// cqlSchema builds a table from "pk:int", "ck:int", "ck:text desc",
// "s:static", "v" (regular, int unless "v:text").
func cqlSchema(pk string, cks []string, cols ...string) *cqlTable {
	t := &cqlTable{name: tbl, types: map[string]bool{}}
	parse := func(s string) cqlCol {
		f := strings.Fields(s)
		name, typ, _ := strings.Cut(f[0], ":")
		return cqlCol{name: name, text: typ == "text", desc: len(f) > 1 && f[1] == "desc"}
	}
	t.pk = parse(pk)
	t.types[t.pk.name] = t.pk.text
	for _, c := range cks {
		col := parse(c)
		t.cks = append(t.cks, col)
		t.types[col.name] = col.text
	}
	for _, c := range cols {
		name, typ, _ := strings.Cut(c, ":")
		switch {
		case strings.HasPrefix(typ, "static"):
			t.statics = append(t.statics, name)
			t.types[name] = strings.HasSuffix(typ, "text")
		default:
			t.regs = append(t.regs, name)
			t.types[name] = typ == "text"
		}
	}
	sort.Strings(t.statics)
	sort.Strings(t.regs)
	return t
}

func (t *cqlTable) isStatic(c string) bool { return slices.Contains(t.statics, c) }

// encodeComponent encodes one clustering value so that byte order is CQL
// order: ints as big-endian with the sign flipped, text escaped and
// terminated so no encoding is a prefix of another; DESC complements it.
func encodeComponent(c cqlCol, v any) string {
	var b []byte
	if c.text {
		for _, x := range []byte(v.(string)) {
			b = append(b, x)
			if x == 0 {
				b = append(b, 0xff)
			}
		}
		b = append(b, 0, 1)
	} else {
		b = binary.BigEndian.AppendUint64(nil, uint64(int64(v.(int)))^(1<<63))
	}
	if c.desc {
		for i := range b {
			b[i] = ^b[i]
		}
	}
	return string(b)
}

func (t *cqlTable) clustering(vals ...any) string {
	var s strings.Builder
	for i, v := range vals {
		s.WriteString(encodeComponent(t.cks[i], v))
	}
	return s.String()
}

// decodeClustering is the inverse of clustering, for a full key.
func (t *cqlTable) decodeClustering(s string) []any {
	b := []byte(s)
	var out []any
	for _, c := range t.cks {
		if c.text {
			var v []byte
			for i := 0; ; i++ {
				x := b[i]
				if c.desc {
					x = ^x
				}
				if x == 0 {
					n := b[i+1]
					if c.desc {
						n = ^n
					}
					if n == 1 {
						b = b[i+2:]
						break
					}
					i++
				}
				v = append(v, x)
			}
			out = append(out, string(v))
			continue
		}
		u := binary.BigEndian.Uint64(b[:8])
		if c.desc {
			u = ^u
		}
		out = append(out, int(int64(u^(1<<63))))
		b = b[8:]
	}
	return out
}

// succ is the least string greater than every string with prefix p, and
// false when there is none.
func succ(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

func (t *cqlTable) value(col string, raw []byte) any {
	if t.types[col] {
		return string(raw)
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		panic(err)
	}
	return n
}

// cqlDB is a table on an RF 3 cluster and a coordinator.
type cqlDB struct {
	t   *testing.T
	tab *cqlTable
	e   *env
	ts  int64 // the next write's timestamp, µs
	now int64 // the clock, s
	on  []string
	pks []any // partition keys written, for "range scans"
	// skew makes each write miss one replica in turn (every fourth none),
	// so only reads that reconcile at least two replicas see every write.
	skew bool
}

func newCQL(t *testing.T, tab *cqlTable, o coordinator.TableOptions) *cqlDB {
	t.Helper()
	if o.SpeculativeRetry.String() == "99p" {
		o.SpeculativeRetry = policy(t, "NEVER").SpeculativeRetry
	}
	e := newEnv(t, coordinator.Config{DefaultTable: o})
	return &cqlDB{t: t, tab: tab, e: e, ts: now * 1_000_000, now: now}
}

// only makes the next writes reach these replicas alone; none resets.
func (db *cqlDB) only(ids ...string) *cqlDB { db.on = ids; return db }

func (db *cqlDB) pkey(v any) string { return fmt.Sprint(v) }

func (db *cqlDB) apply(p replica.Partition) {
	db.t.Helper()
	db.ts++
	ids := db.on
	if ids == nil {
		reps, _, err := db.e.cluster.Locate(tbl, p.Key)
		require.NoError(db.t, err)
		for _, r := range reps {
			ids = append(ids, r.Endpoint().ID)
		}
	}
	if db.skew && db.on == nil { // each write misses one replica in turn, or none
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
	ttl int32
	ts  int64 // USING TIMESTAMP, µs; 0 takes the next
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
	ts := db.stamp(o)
	pk := vals[db.tab.pk.name]
	db.notePK(pk)
	p := replica.NewPartition(db.pkey(pk))
	stat, reg := db.cells(vals, ts, o)
	if len(stat) > 0 {
		p = p.WithStatic(stat...)
	}
	if _, ok := vals[db.tab.cks[0].name]; ok {
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

func allEQ(rs []cqlRel) bool {
	for _, r := range rs {
		if r.op != "=" || len(r.cols) != 1 {
			return false
		}
	}
	return true
}

// cqlRel is a relation on clustering columns: col op val, col IN (vals),
// or (c1, c2) op (v1, v2) with vals the tuple (or tuples, for IN).
type cqlRel struct {
	cols []string
	op   string // = IN > >= < <=
	vals []any
}

func rel(col, op string, vals ...any) cqlRel { return cqlRel{cols: []string{col}, op: op, vals: vals} }

// tup is a multi-column relation: (cols) op (vals), vals flat.
func tup(cols []string, op string, vals ...any) cqlRel { return cqlRel{cols: cols, op: op, vals: vals} }

// slices turns clustering relations into normalised slices: EQ and IN on
// a prefix of the clustering columns, then at most one range on the next
// (a single column, or a tuple of columns of one direction).
func (t *cqlTable) slices(where []cqlRel) ([]replica.Slice, error) {
	prefixes := []string{""}
	i := 0 // next clustering column
	var ranges []cqlRel
	for _, r := range where {
		if r.cols[0] != t.cks[i].name && len(ranges) == 0 {
			return nil, fmt.Errorf("relation on %v out of clustering order", r.cols)
		}
		switch r.op {
		case "=", "IN":
			if len(ranges) > 0 {
				return nil, fmt.Errorf("EQ after a range")
			}
			var next []string
			n := len(r.cols)
			for _, p := range prefixes {
				for k := 0; k < len(r.vals); k += n {
					s := p
					for j := range n {
						s += encodeComponent(t.cks[i+j], r.vals[k+j])
					}
					next = append(next, s)
				}
			}
			prefixes, i = next, i+n
		default:
			ranges = append(ranges, r)
		}
	}
	var out []replica.Slice
	for _, p := range prefixes {
		start, end := replica.StartAt(p), replica.Top()
		if p == "" {
			start = replica.Bottom()
		}
		if s, ok := succ(p); ok && p != "" {
			end = replica.EndBefore(s)
		}
		empty := false
		for _, r := range ranges {
			n := len(r.cols)
			desc := t.cks[i].desc
			var v strings.Builder
			v.WriteString(p)
			for j := range n {
				if t.cks[i+j].desc != desc {
					return nil, fmt.Errorf("mixed-order tuple relation")
				}
				v.WriteString(encodeComponent(t.cks[i+j], r.vals[j]))
			}
			op := r.op
			if desc { // the encoding reverses the order
				op = map[string]string{">": "<", ">=": "<=", "<": ">", "<=": ">="}[op]
			}
			after, hasAfter := succ(v.String())
			switch op {
			case ">=":
				start = replica.StartAt(v.String())
			case ">":
				if !hasAfter {
					empty = true
				}
				start = replica.StartAt(after)
			case "<":
				end = replica.EndBefore(v.String())
			case "<=":
				if hasAfter {
					end = replica.EndBefore(after)
				} else {
					end = replica.Top()
				}
			}
		}
		if !empty && (start.Compare(end) < 0) {
			out = append(out, replica.Slice{Start: start, End: end})
		}
	}
	if where == nil {
		return nil, nil
	}
	return replica.NormalizeSlices(out)
}

// cqlSelect is SELECT cols FROM t WHERE pk IN (pks) AND where ORDER BY
// [clustering order, or reversed] PER PARTITION LIMIT ppl LIMIT limit,
// read pageSize rows a page. No pks is a scan of every partition
// written, in key order (readpath has no range reads).
type cqlSelect struct {
	cols     []string // nil is *; also "writetime(c)", "ttl(c)"
	pks      []any
	where    []cqlRel
	reversed bool // ORDER BY opposite to the clustering order
	ordered  bool // ORDER BY given with IN: sort across partitions
	ppl      int
	limit    int
	pageSize int
	level    consistency.Level
	fetchAll bool // read every column, project here (Cassandra's row existence)
	// distinct is SELECT DISTINCT of partition-key and static columns: one
	// row of every partition that has live data, read with a limit of one
	// row a partition, as Cassandra's distinct limits.
	distinct bool
}

func (db *cqlDB) columnsToRead(s cqlSelect) []string {
	if s.cols == nil || s.fetchAll {
		return nil
	}
	var cols []string
	for _, c := range s.cols {
		if i := strings.Index(c, "("); i >= 0 {
			c = strings.TrimSuffix(c[i+1:], ")")
		}
		if c == db.tab.pk.name || slices.ContainsFunc(db.tab.cks, func(k cqlCol) bool { return k.name == c }) {
			continue
		}
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	if cols == nil {
		cols = []string{} // primary-key columns only
	}
	return cols
}

type cqlRow struct {
	ck   string
	vals []any
}

// selectRows runs s and returns its rows as CQL shows them.
func (db *cqlDB) selectRows(s cqlSelect) [][]any {
	db.t.Helper()
	rows, err := db.run(s)
	require.NoError(db.t, err)
	return rows
}

func (db *cqlDB) run(s cqlSelect) ([][]any, error) {
	if s.level == 0 {
		s.level = consistency.All
	}
	if s.distinct {
		s.ppl = 1
	}
	sl, err := db.tab.slices(s.where)
	if err != nil {
		return nil, err
	}
	q := replica.Query{Slices: sl, Reversed: s.reversed}
	cols := db.columnsToRead(s)
	shown := s.cols
	if shown == nil {
		shown = db.tab.starCols()
	}
	pks := slices.Clone(s.pks)
	if pks == nil {
		pks = slices.Clone(db.pks)
	}
	// Cassandra reads an IN list's keys sorted and deduplicated.
	slices.SortFunc(pks, func(a, b any) int {
		return strings.Compare(encodeComponent(db.tab.pk, a), encodeComponent(db.tab.pk, b))
	})
	pks = slices.Compact(pks)
	ctx := context.Background()
	var out []cqlRow
	if len(pks) == 1 && s.ppl == 0 {
		q.Limit = s.limit
		req := coordinator.Request{Table: tbl, Key: db.pkey(pks[0]), Level: s.level, Columns: cols,
			Query: q, PageSize: s.pageSize, NowInSec: db.now}
		for {
			res, err := db.e.c.Read(ctx, req)
			if err != nil {
				return nil, err
			}
			out = append(out, db.rows(shown, pks[0], q, res.Visible())...)
			if res.PagingState == nil || s.pageSize == 0 {
				break
			}
			req.PagingState = res.PagingState
		}
	} else {
		keys := make([]string, len(pks))
		byKey := map[string]any{}
		for i, pk := range pks {
			keys[i] = db.pkey(pk)
			byKey[keys[i]] = pk
		}
		q.Limit = s.ppl
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: s.level, Columns: cols, Query: q,
			Limit: s.limit, PageSize: s.pageSize, NowInSec: db.now}
		if s.ordered { // sort in memory: read every partition up to the limit
			req.Limit = 0
			if s.limit > 0 && (q.Limit == 0 || s.limit < q.Limit) {
				req.Query.Limit = s.limit
			}
		}
		for {
			res, err := db.e.c.ReadMany(ctx, req)
			if err != nil {
				return nil, err
			}
			for _, kr := range res {
				if kr.Err != nil {
					return nil, kr.Err
				}
				rows := db.rows(shown, byKey[kr.Key], q, kr.Result.Visible())
				if s.distinct && len(rows) > 1 {
					rows = rows[:1]
				}
				out = append(out, rows...)
			}
			next, ok := req.Next(res)
			if !ok || s.pageSize == 0 {
				break
			}
			req = next
		}
		if s.ordered {
			slices.SortStableFunc(out, func(a, b cqlRow) int {
				if s.reversed {
					return strings.Compare(b.ck, a.ck)
				}
				return strings.Compare(a.ck, b.ck)
			})
			if s.limit > 0 && len(out) > s.limit {
				out = out[:s.limit]
			}
		}
	}
	var vals [][]any
	for _, r := range out {
		vals = append(vals, r.vals)
	}
	return vals, nil
}

// rows turns a partition's view into CQL rows, in the query's order.
func (db *cqlDB) rows(cols []string, pk any, q replica.Query, v replica.View) []cqlRow {
	var out []cqlRow
	for _, r := range v.Rows {
		if r.Static && !q.SelectsAllRows() {
			continue // CQL shows static-only content to full-partition queries alone
		}
		out = append(out, cqlRow{ck: r.Clustering, vals: db.project(cols, pk, v.Static, r)})
	}
	if q.Reversed {
		slices.Reverse(out)
	}
	return out
}

func (db *cqlDB) project(cols []string, pk any, static []replica.Cell, r replica.ViewRow) []any {
	cells := map[string]replica.Cell{}
	for _, c := range static {
		cells[c.Column] = c
	}
	for _, c := range r.Cells {
		cells[c.Column] = c
	}
	var ck []any
	if !r.Static {
		ck = db.tab.decodeClustering(r.Clustering)
	} else {
		ck = make([]any, len(db.tab.cks))
	}
	get := func(col string) any {
		if col == db.tab.pk.name {
			return pk
		}
		for i, c := range db.tab.cks {
			if c.name == col {
				return ck[i]
			}
		}
		fn, arg, ok := strings.Cut(col, "(")
		arg = strings.TrimSuffix(arg, ")")
		if !ok {
			arg = col
		}
		c, live := cells[arg]
		if !live {
			return nil
		}
		switch fn {
		case "writetime":
			return int(c.Timestamp)
		case "ttl":
			if c.TTL == 0 {
				return nil
			}
			return int(c.LocalDeletionTime - db.now)
		}
		return db.tab.value(arg, c.Value)
	}
	var out []any
	for _, c := range cols {
		out = append(out, get(c))
	}
	return out
}

// starCols are the columns of SELECT *, in Cassandra's order.
func (t *cqlTable) starCols() []string {
	cols := []string{t.pk.name}
	for _, c := range t.cks {
		cols = append(cols, c.name)
	}
	return append(append(cols, t.statics...), t.regs...)
}
