package replica

import (
	"strconv"
	"strings"
)

// maxShownValue is how many bytes of a value String shows.
const maxShownValue = 64

// String returns p on one line, for logs and test failures, as in
//
//	partition "user:42": deleted@5/100; static {s="x"@1}; range ["a", "c") deleted@7/100; row "d" {inserted@3, tags["red"]=""@3, x="v"@3 ttl 60 until 1700}
//
// Timestamps (µs) follow @, local deletion times (s) follow /, and a row's
// parts come in order: liveness, row deletion, complex deletions (col[*]),
// cells. A value longer than 64 bytes is cut, with its length.
func (p Partition) String() string {
	var b strings.Builder
	b.WriteString("partition " + strconv.Quote(p.Key) + ":")
	sep := " "
	part := func(s string) {
		b.WriteString(sep + s)
		sep = "; "
	}
	if !p.Deletion.IsLive() {
		part(p.Deletion.String())
	}
	if p.hasStatic() {
		part("static " + p.Static.body())
	}
	for _, rt := range p.RangeTombstones {
		part("range " + rt.String())
	}
	for i := range p.Rows {
		part("row " + strconv.Quote(p.Rows[i].Clustering) + " " + p.Rows[i].body())
	}
	if sep == " " {
		b.WriteString(" empty")
	}
	return b.String()
}

// String returns "deleted@ts/ldt", or "not deleted" for the zero Deletion.
func (d Deletion) String() string {
	if d.IsLive() {
		return "not deleted"
	}
	return deletedString(d.MarkedForDeleteAt, d.LocalDeletionTime)
}

// deletedString returns "deleted@ts/ldt".
func deletedString(ts, localDeletionTime int64) string {
	return "deleted@" + strconv.FormatInt(ts, 10) + "/" + strconv.FormatInt(localDeletionTime, 10)
}

// String returns "inserted@ts", with " ttl T until E" if it expires, or
// "no liveness" for the zero Liveness.
func (l Liveness) String() string {
	if l.IsEmpty() {
		return "no liveness"
	}
	return "inserted@" + strconv.FormatInt(l.Timestamp, 10) + ttlString(l.TTL, l.ExpiresAt)
}

// String returns the range and its deletion, as ["a", "c") deleted@7/100.
func (rt RangeTombstone) String() string {
	return rt.Start.String() + ", " + rt.End.String() + " " + rt.Deletion.String()
}

// String returns the cell as column="value"@ts, with [path] after the
// column if it has one, " ttl T until E" if it expires, or as
// column deleted@ts/ldt for a tombstone.
func (c Cell) String() string {
	name := c.Column
	if c.Path != "" {
		name += "[" + strconv.Quote(c.Path) + "]"
	}
	if c.Tombstone {
		return name + " " + deletedString(c.Timestamp, c.LocalDeletionTime) // a tombstone at 0/0 too, which no Deletion can be
	}
	return name + "=" + valueString(c.Value) + "@" + strconv.FormatInt(c.Timestamp, 10) + ttlString(c.TTL, c.LocalDeletionTime)
}

// String returns the row as row "clustering" {parts}.
func (r Row) String() string { return "row " + strconv.Quote(r.Clustering) + " " + r.body() }

// body returns a row's parts in braces.
func (r *Row) body() string {
	var parts []string
	if !r.Liveness.IsEmpty() {
		parts = append(parts, r.Liveness.String())
	}
	if !r.Deletion.IsLive() {
		parts = append(parts, r.Deletion.String())
	}
	for _, cd := range r.ComplexDeletions {
		parts = append(parts, cd.Column+"[*] "+cd.Deletion.String())
	}
	for _, c := range r.Cells {
		parts = append(parts, c.String())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// String returns the view on one line, as in
//
//	view "user:42": static {s="x"@1}; row "a" {x="v"@3}; row "b" {}
//
// with "static row" for the row of a partition holding only static data.
func (v View) String() string {
	parts := []string{}
	if len(v.Static) > 0 {
		parts = append(parts, "static "+cellsString(v.Static))
	}
	for _, r := range v.Rows {
		if r.Static {
			parts = append(parts, "static row")
			continue
		}
		parts = append(parts, "row "+strconv.Quote(r.Clustering)+" "+cellsString(r.Cells))
	}
	if len(parts) == 0 {
		parts = append(parts, "empty")
	}
	return "view " + strconv.Quote(v.Key) + ": " + strings.Join(parts, "; ")
}

func cellsString(cells []Cell) string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	return "{" + strings.Join(s, ", ") + "}"
}

func ttlString(ttl int32, expiresAt int64) string {
	if ttl == 0 && expiresAt == 0 {
		return ""
	}
	return " ttl " + strconv.Itoa(int(ttl)) + " until " + strconv.FormatInt(expiresAt, 10)
}

func valueString(v []byte) string {
	if len(v) <= maxShownValue {
		return strconv.Quote(string(v))
	}
	return strconv.Quote(string(v[:maxShownValue])) + "...(" + strconv.Itoa(len(v)) + " bytes)"
}
