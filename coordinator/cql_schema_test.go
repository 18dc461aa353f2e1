package coordinator_test

import (
	"encoding/binary"
	"slices"
	"sort"
	"strconv"
	"strings"
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
