package replica_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// FirstRowOutside finds the first row that Contains says no slice selects,
// and finds none in what Respond answers.
func TestFirstRowOutsideIsContainsOverEveryRow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		q := queryGen().Draw(t, "query")
		want, wantOK := "", false
		for _, r := range p.Rows {
			if !q.Contains(r.Clustering) {
				want, wantOK = r.Clustering, true
				break
			}
		}
		got, ok := q.FirstRowOutside(p.Rows)
		if got != want || ok != wantOK {
			t.Fatalf("FirstRowOutside = %q, %v; want %q, %v", got, ok, want, wantOK)
		}
		resp, err := replica.Command{Table: "t", Key: p.Key, Query: q, NowInSec: 10}.Respond(p)
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := q.FirstRowOutside(resp.Partition.Rows); ok {
			t.Fatalf("Respond answered row %q outside %v", c, q.Slices)
		}
	})
}

// A row at the exclusive end of a slice, or past a slice that ends just
// before it, is outside it: a coordinator must catch a replica that answers
// the row at EndBefore's key (Cassandra's ClusteringBound: an exclusive end
// sorts before every clustering with its prefix). Walking the slices, the
// one ending at before(c) is behind row c, not around it.
func TestFirstRowOutsideCatchesTheRowAtAnExclusiveEnd(t *testing.T) {
	rows := func(keys ...string) []replica.Row {
		rs := make([]replica.Row, len(keys))
		for i, k := range keys {
			rs[i] = replica.NewRow(k, replica.Live("v", "x", 1))
		}
		return rs
	}
	for _, tc := range []struct {
		name   string
		slices []replica.Slice
		rows   []replica.Row
		want   string
		wantOK bool
	}{
		{"row at exclusive end", []replica.Slice{{Start: replica.StartAt("a"), End: replica.EndBefore("c")}},
			rows("a", "b", "c"), "c", true},
		{"row at inclusive end", []replica.Slice{{Start: replica.StartAt("a"), End: replica.EndAt("c")}},
			rows("a", "b", "c"), "", false},
		{"row between slices, at the first's exclusive end", []replica.Slice{
			{Start: replica.StartAt("a"), End: replica.EndBefore("c")},
			{Start: replica.StartAfter("c"), End: replica.Top()}},
			rows("a", "c", "d"), "c", true},
		{"row at the next slice's start, the first ending before it", []replica.Slice{
			{Start: replica.StartAt("a"), End: replica.EndBefore("c")},
			{Start: replica.StartAt("c"), End: replica.Top()}},
			rows("a", "c", "d"), "", false},
	} {
		got, ok := replica.Query{Slices: tc.slices}.FirstRowOutside(tc.rows)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: FirstRowOutside = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}
