package replicatest

import (
	"context"
	"fmt"
	"testing"

	"github.com/readpath/readpath/replica"
)

// Writes held unmerged never hold many more rows than the partition they
// are to be merged into: rewriting a 200-row partition whole 300 times
// without a read held up to 40,200 rows (201 writes; 400 now) when a fold
// waited for the writes, not their rows, to outnumber the partition's.
func TestHeldWritesStayWithinThePartitionsSize(t *testing.T) {
	ctx := context.Background()
	r := NewReplica(replica.Endpoint{ID: "a"})
	const rows = 200
	var w replica.Partition
	for i := range rows {
		w.Rows = append(w.Rows, replica.NewRow(fmt.Sprintf("row%04d", i), replica.Live("v", "x", 1)))
	}
	w.Key = "k"
	for i := range 300 {
		if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: w}); err != nil {
			t.Fatal(err)
		}
		e := r.data.get("t", "k")
		held := 0
		for w := e.writes; w != nil; w = w.prev {
			held += len(w.p.Rows)
		}
		if limit := max(minFold, len(e.base.Rows)) + rows; held > limit {
			t.Fatalf("after %d writes: %d rows held unmerged over a base of %d; want at most %d", i+1, held, len(e.base.Rows), limit)
		}
	}
	if got, _ := r.Partition("t", "k"); !got.Equal(w) {
		t.Fatalf("holds %+v; want %+v", got, w)
	}
}
