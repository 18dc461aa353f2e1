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
