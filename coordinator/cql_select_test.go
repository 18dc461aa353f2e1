package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

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
		s := replica.PrefixSlice(p)
		start, end := s.Start, s.End
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
			switch op {
			case ">=":
				start = replica.StartAt(v.String())
			case ">":
				start = replica.PrefixEnd(v.String()).AsStart()
				empty = start == replica.Top()
			case "<":
				end = replica.EndBefore(v.String())
			case "<=":
				end = replica.PrefixEnd(v.String())
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
			return c.Timestamp // microseconds: past an int of 32 bits
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
